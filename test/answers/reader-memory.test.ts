import { afterAll, describe, expect, it } from 'vitest';
import { ocrLanguage } from '../../src/answers/attachment-reader/ocr.js';
import { AttachmentReader } from '../../src/answers/attachment-reader/reader-pool.js';
import { pngOf } from './png.js';

/**
 * Tesseract's WebAssembly memory grows with the largest image a reader decodes and never shrinks:
 * a 16-bit 4000×4000 PNG (129 KiB) left a reader 187 MiB larger for good (#31). A reader past its
 * memory mark is replaced once its attachment is answered.
 */
describe('a reader past its memory mark', () => {
  const warnings: { details: object; message: string }[] = [];
  const reader = new AttachmentReader({
    size: 1,
    maxQueue: 4,
    // OCR of a large image takes seconds on a loaded machine: the deadline is not what is tested here.
    timeoutMs: 120_000,
    ocrLanguages: [ocrLanguage('eng')],
    log: { warn: (details, message) => void warnings.push({ details, message }), error: (details, message) => void warnings.push({ details, message }) },
  });
  afterAll(() => reader.close());
  const read = async (png: Buffer) => (await reader.read([{ kind: 'image', contentBase64: png.toString('base64') }]))[0]!;
  const replaced = () => warnings.filter((w) => w.message === 'attachment reader: past its memory mark, replaced');

  it('keeps a reader that read screenshots, replaces one that read a 4K image, and reads on', async () => {
    expect((await read(pngOf(1280, 720, 8))).status).toBe('read');
    expect((await read(pngOf(1280, 720, 8))).status).toBe('read');
    expect(replaced()).toEqual([]);
    // 3840×2160: Tesseract's memory grows from ~30 MiB to ~155 MiB reading it.
    expect((await read(pngOf(3840, 2160, 8))).status).toBe('read');
    expect(replaced()).toHaveLength(1);
    expect((replaced()[0]!.details as { memoryMb: number }).memoryMb).toBeGreaterThan(128);
    // The next attachment gets a new reader, which starts small again.
    expect((await read(pngOf(1280, 720, 8))).status).toBe('read');
    expect(replaced()).toHaveLength(1);
    expect(warnings.filter((w) => w.message !== 'attachment reader: past its memory mark, replaced')).toEqual([]);
  }, 180_000);
});
