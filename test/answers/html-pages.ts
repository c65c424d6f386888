/** HTML pages that are costly to read (#44): deep nesting and sheer size. */

/** `levels` nested elements of one kind (`div` or `b`) around a sentence, in a page with a title. */
export function nestedHtml(tag: string, levels: number): string {
  return `<!doctype html><html><head><title>Nested ${tag}</title></head><body>${`<${tag}>`.repeat(levels)}Deep inside the page.${`</${tag}>`.repeat(levels)}</body></html>`;
}

/** A flat help page of about `bytes` bytes: sections of headings, paragraphs and lists. */
export function bigHtml(bytes: number): string {
  const section = (n: number) =>
    `<section><h2>Part ${n}</h2><p>Refunds for part ${n} are paid within <b>five</b> working days, to the card that paid, and <a href="/help/${n}">the help page</a> says more.</p><ul><li>Open the billing page</li><li>Choose the order ${n}</li></ul></section>\n`;
  const parts: string[] = ['<!doctype html><html><head><title>A very long page</title></head><body><main><h1>A very long page</h1>'];
  let length = parts[0]!.length;
  for (let n = 0; length < bytes; n++) {
    const s = section(n);
    parts.push(s);
    length += s.length;
  }
  parts.push('</main></body></html>');
  return parts.join('');
}

/**
 * Starts the app's attachment readers and waits until one reads (a page, here): starting one (tsx,
 * pdf.js) takes seconds on a loaded machine, past the pool's start timeout on a very loaded one,
 * and a test about reading pages is not about that.
 */
export async function warmReaders(reader: { read(a: { kind: 'html'; contentBase64: string }[]): Promise<{ status: string }[]> }) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [reading] = await reader.read([{ kind: 'html', contentBase64: Buffer.from('<p>Warm.</p>').toString('base64') }]);
    if (reading?.status !== 'unreadable') return;
  }
  throw new Error('no attachment reader started');
}
