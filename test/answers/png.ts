import { deflateSync } from 'node:zlib';

/** An RGBA PNG (16 bits a sample unless told), mostly white with a few dark bands (not all one colour), no text: what OCR of its size costs. */
export function pngOf(width: number, height: number, depth: 8 | 16 = 16): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = 6; // RGBA
  const bytes = depth / 2; // per pixel: 4 samples
  const row = 1 + width * bytes;
  const raw = Buffer.alloc(row * height, 0xff);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0;
    if (y % 400 < 40) raw.fill(0x20, y * row + 1 + 200 * bytes, y * row + 1 + 600 * bytes);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
