/** Text of about `chars` characters in sentences and paragraphs, different for every seed. */
export function filler(chars: number, seed: number) {
  const out: string[] = [];
  let length = 0;
  let n = seed * 7919 + 1;
  while (length < chars) {
    n = (n * 1103515245 + 12345) % 2147483648;
    const word = `w${(n % 40_000).toString(36)}`;
    out.push(word);
    length += word.length + 1;
    if (n % 13 === 0) {
      out.push('.\n\n');
      length += 3;
    }
  }
  return out.join(' ').slice(0, chars);
}
