/*
 * Pictures built byte by byte for the size checks of avatars and covers: only their headers (and
 * an animation's frame headers) are real; the pixels are not, since the check never decodes any.
 */

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16le = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const u24le = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);
const pngChunk = (type: string, data: Buffer) => Buffer.concat([u32be(data.length), Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);

/** A PNG's signature and IHDR for width × height; `frames` adds APNG frame controls; `headerOnly` stops after IHDR. */
export function png(width: number, height: number, { frames = [] as [number, number][], headerOnly = false } = {}) {
  const ihdr = pngChunk('IHDR', Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0])]));
  const head = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr]);
  if (headerOnly) return head;
  const controls = frames.map(([w, h], i) => pngChunk('fcTL', Buffer.concat([u32be(i), u32be(w), u32be(h), Buffer.alloc(14)])));
  return Buffer.concat([head, ...controls, pngChunk('IDAT', Buffer.alloc(32)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A GIF89a of canvas width × height with one image per frame, each carrying `dataBytes` of (meaningless) image data. */
export function gif(width: number, height: number, frames: [number, number][], dataBytes = 16) {
  const parts = [Buffer.from('GIF89a', 'latin1'), u16le(width), u16le(height), Buffer.from([0, 0, 0])];
  for (const [w, h] of frames) {
    // A graphic control extension, as animations have before each frame.
    parts.push(Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0]));
    parts.push(Buffer.from([0x2c]), u16le(0), u16le(0), u16le(w), u16le(h), Buffer.from([0]), Buffer.from([2]));
    for (let left = dataBytes; left > 0; left -= 255) {
      const n = Math.min(255, left);
      parts.push(Buffer.from([n]), Buffer.alloc(n, 0x55));
    }
    parts.push(Buffer.from([0]));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}

/** A baseline JPEG of width × height whose frame header comes after `exifBytes` of an APP1 segment (camera files carry 20-60 KB). */
export function jpeg(width: number, height: number, exifBytes = 0) {
  const segment = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff]), data]);
  const app1 = exifBytes ? [segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.alloc(exifBytes)]))] : [];
  const sof = segment(0xc0, Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]));
  return Buffer.concat([Buffer.from([0xff, 0xd8]), ...app1, sof, Buffer.from([0xff, 0xd9])]);
}

/** An animated WebP (VP8X canvas width × height) with one ANMF chunk per frame. */
export function animatedWebp(width: number, height: number, frames: [number, number][]) {
  const chunk = (type: string, data: Buffer) => Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(u32le(data.length)), data, data.length & 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  const vp8x = chunk('VP8X', Buffer.concat([Buffer.from([0x02, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]));
  const anim = chunk('ANIM', Buffer.alloc(6));
  const anmf = frames.map(([w, h]) => chunk('ANMF', Buffer.concat([u24le(0), u24le(0), u24le(w - 1), u24le(h - 1), u24le(100), Buffer.from([0]), Buffer.alloc(8)])));
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), vp8x, anim, ...anmf]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from(u32le(body.length)), body]);
}

function u32le(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
