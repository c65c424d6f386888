import { describe, expect, it } from 'vitest';
import { ocrLanguage } from '../../src/answers/attachment-reader/ocr.js';
import { gifFramePixels } from '../../src/answers/attachment-reader/read-attachment.js';
import { AttachmentReader } from '../../src/answers/attachment-reader/reader-pool.js';
import { greyGif } from './ocr-images.js';

/** The first image descriptor's offset in a greyGif (header, screen, 256-colour table, loop extension, frame delay). */
const FIRST_FRAME = 6 + 7 + 768 + 19 + 8;

describe('GIF frames, counted from their descriptors', () => {
  it('adds up every frame at its own size, whatever the screen says', () => {
    const frame = new Uint8Array(64 * 10).fill(200);
    expect(gifFramePixels(greyGif(64, 10, [frame, frame]))).toBe(2 * 64 * 10);
    const forged = greyGif(64, 10, [frame]);
    expect(forged[FIRST_FRAME]).toBe(0x2c);
    forged.writeUInt16LE(8000, FIRST_FRAME + 5);
    forged.writeUInt16LE(8000, FIRST_FRAME + 7);
    expect(gifFramePixels(forged)).toBe(64_000_000);
    expect(gifFramePixels(new Uint8Array([0x47, 0x49, 0x46]))).toBeNull();
    expect(gifFramePixels(Buffer.concat([greyGif(64, 10, []).subarray(0, 6 + 7 + 768 + 19), Buffer.from([0x99])]))).toBeNull();
  });
});

describe('a GIF whose frame outgrows its screen', { timeout: 120_000 }, () => {
  it('is read by its header without OCR (the OCR would decode the frame at 8000×8000)', async () => {
    const reader = new AttachmentReader({ size: 1, maxQueue: 4, timeoutMs: 60_000, log: { warn: () => {}, error: () => {} }, ocrLanguages: [ocrLanguage('eng')] });
    try {
      const forged = greyGif(64, 10, [new Uint8Array(64 * 10).fill(200)]);
      forged.writeUInt16LE(8000, FIRST_FRAME + 5);
      forged.writeUInt16LE(8000, FIRST_FRAME + 7);
      expect(await reader.read([{ kind: 'image', contentBase64: forged.toString('base64') }])).toEqual([{ kind: 'image', status: 'read' }]);
    } finally {
      await reader.close();
    }
  });
});
