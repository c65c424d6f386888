/**
 * Waits until a GET of `url` answers 2xx (a server child process that has started listening), polling every 100 ms;
 * throws after `seconds`. The benchmarks' servers start as `npm start` starts them, which on a shared 2-core machine
 * has taken over 30 s.
 */
export async function untilUp(url: string, seconds = 90): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer in ${seconds} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
