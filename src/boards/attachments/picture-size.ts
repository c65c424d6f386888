import { imageSize } from 'image-size';
import { badRequest } from '../../platform/errors.js';

/**
 * How large a picture shown to every viewer may be (an avatar, a card's cover): at most
 * MAX_PICTURE_SIDE pixels a side and MAX_PICTURE_PIXELS pixels in all, the frames of an
 * animation added up. A browser decodes each frame whole: a 20,000 × 20,000 PNG is 1.6 GB of
 * pixels in every viewer's tab, though its file may be a few kilobytes (or only its header).
 */
export const MAX_PICTURE_SIDE = 8000;
export const MAX_PICTURE_PIXELS = 40_000_000;

/** A picture's size as its headers say: the canvas, and every frame's pixels added up. */
export interface PictureSize {
  width: number;
  height: number;
  frames: number;
  /** Pixels of all frames together (one frame: width × height). */
  pixels: number;
  /** The largest side of the canvas or of any frame. */
  largestSide: number;
}

const u16le = (b: Buffer, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Buffer, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

/** GIF: the logical screen, then every image descriptor's frame (extensions and image data skipped by their sub-blocks). */
function gifSize(b: Buffer): PictureSize {
  if (b.length < 13) throw new Error('truncated');
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  let at = 13 + (b[10]! & 0x80 ? 3 << ((b[10]! & 7) + 1) : 0);
  let frames = 0;
  let pixels = 0;
  let largestSide = Math.max(width, height);
  const skipSubBlocks = () => {
    while (at < b.length && b[at] !== 0) at += b[at]! + 1;
    at++;
  };
  while (at < b.length) {
    const block = b[at]!;
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      at += 2; // introducer and label
      skipSubBlocks();
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break;
      const w = u16le(b, at + 5);
      const h = u16le(b, at + 7);
      const packed = b[at + 9]!;
      frames++;
      pixels += w * h;
      largestSide = Math.max(largestSide, w, h);
      at += 10 + (packed & 0x80 ? 3 << ((packed & 7) + 1) : 0) + 1; // descriptor, local colour table, LZW code size
      skipSubBlocks();
    } else break; // not a GIF block: what was read stands
  }
  return { width, height, frames: Math.max(frames, 1), pixels: Math.max(pixels, width * height), largestSide };
}

/** PNG: the IHDR canvas, and APNG's frames (fcTL chunks), read from the chunk headers. */
function pngSize(b: Buffer): PictureSize {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') throw new Error('no IHDR');
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  let frames = 0;
  let pixels = 0;
  let largestSide = Math.max(width, height);
  for (let at = 8; at + 8 <= b.length; ) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'fcTL' && at + 8 + 12 <= b.length) {
      const w = b.readUInt32BE(at + 12);
      const h = b.readUInt32BE(at + 16);
      frames++;
      pixels += w * h;
      largestSide = Math.max(largestSide, w, h);
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return { width, height, frames: Math.max(frames, 1), pixels: frames ? pixels : width * height, largestSide };
}

/** WebP: the canvas (image-size), and an animation's frames (ANMF chunks). */
function webpSize(b: Buffer): PictureSize {
  const { width = 0, height = 0 } = imageSize(b);
  let frames = 0;
  let pixels = 0;
  let largestSide = Math.max(width, height);
  for (let at = 12; at + 8 <= b.length; ) {
    const type = b.toString('latin1', at, at + 4);
    const length = b.readUInt32LE(at + 4);
    if (type === 'ANMF' && at + 8 + 16 <= b.length) {
      const w = u24le(b, at + 8 + 6) + 1;
      const h = u24le(b, at + 8 + 9) + 1;
      frames++;
      pixels += w * h;
      largestSide = Math.max(largestSide, w, h);
    }
    at += 8 + length + (length & 1);
  }
  return { width, height, frames: Math.max(frames, 1), pixels: frames ? pixels : width * height, largestSide };
}

/**
 * The size a picture's headers declare (no pixel is decoded: a 50,000² PNG of a few bytes costs
 * those bytes). `bytes` is the whole file, so that every frame of an animation is counted; null
 * when the headers cannot be read.
 */
export function pictureSize(bytes: Buffer, mimeType: string): PictureSize | null {
  try {
    if (mimeType === 'image/gif') return gifSize(bytes);
    if (mimeType === 'image/png') return pngSize(bytes);
    if (mimeType === 'image/webp') return webpSize(bytes);
    const { width, height } = imageSize(bytes);
    if (!width || !height) return null;
    return { width, height, frames: 1, pixels: width * height, largestSide: Math.max(width, height) };
  } catch {
    return null;
  }
}

/**
 * Refuses (400, naming `field` and the limits) a picture larger than an avatar or a cover may
 * be, or whose size cannot be read from its headers.
 */
export function checkPictureSize(bytes: Buffer, mimeType: string, field: string, what: string) {
  const size = pictureSize(bytes, mimeType);
  if (!size) throw badRequest(`${field}: the picture's size cannot be read from its header (a damaged or cut-off ${mimeType} file)`);
  const limits = `${what} may be at most ${MAX_PICTURE_SIDE} pixels a side and ${MAX_PICTURE_PIXELS / 1_000_000} megapixels (an animation's frames added up)`;
  if (size.largestSide > MAX_PICTURE_SIDE) {
    throw badRequest(`${field}: the picture is ${size.width} × ${size.height} pixels${size.largestSide > Math.max(size.width, size.height) ? ` with a frame ${size.largestSide} pixels wide or high` : ''}; ${limits}`);
  }
  if (size.pixels > MAX_PICTURE_PIXELS) {
    const mp = (size.pixels / 1_000_000).toFixed(1);
    throw badRequest(`${field}: the picture has ${mp} megapixels${size.frames > 1 ? ` in ${size.frames} frames` : ''}; ${limits}`);
  }
}
