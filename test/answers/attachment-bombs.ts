import zlib from 'node:zlib';

const MiB = 1024 * 1024;

/**
 * A valid one-page PDF whose content stream is FlateDecode of `mib` MiB of spaces: about 200 KB
 * for 200 MiB, as the outside tester's. Deflated a block at a time, so making one never holds
 * the inflated size (a test measuring its process's memory must not do what it measures).
 */
export async function pdfBomb(mib = 200): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(MiB, 0x20);
  for (let i = 0; i < mib; i++) {
    if (!deflate.write(block)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return pdfWithContent(Buffer.concat(chunks), '/Filter /FlateDecode');
}

/** A one-page PDF (catalog, pages, page, content stream) with a correct cross-reference table. */
export function pdfWithContent(content: Buffer, streamKeys = ''): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: Buffer | string) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (n: number, body: string) => {
    offsets[n] = length;
    push(`${n} 0 obj\n${body}\nendobj\n`);
  };
  push('%PDF-1.4\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>');
  offsets[4] = length;
  push(`4 0 obj\n<< /Length ${content.length} ${streamKeys} >>\nstream\n`);
  push(content);
  push('\nendstream\nendobj\n');
  const xref = length;
  const entries = [1, 2, 3, 4].map((n) => `${String(offsets[n]).padStart(10, '0')} 00000 n \n`).join('');
  push(`xref\n0 5\n0000000000 65535 f \n${entries}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** The first bytes of a PNG claiming `width`×`height`: all a header check reads. */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA: 40 GB of pixels at 100000×100000
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), length, Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
}
