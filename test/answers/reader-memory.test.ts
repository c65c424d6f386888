import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ocrLanguage } from '../../src/answers/attachment-reader/ocr.js';
import { AttachmentReader } from '../../src/answers/attachment-reader/reader-pool.js';
import { scaledPng } from '../../src/answers/attachment-reader/scale-png.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../web/browser.js';
import { renderHtml, words } from './ocr-images.js';
import { pngOf } from './png.js';

/**
 * Tesseract's WebAssembly memory grows with the largest image a reader decodes and never shrinks:
 * a 16-bit 4000×4000 PNG (129 KiB) left a reader 187 MiB larger for good (#31). Large and 16-bit
 * PNGs are scaled down before OCR, and a reader past its memory mark is replaced once its
 * attachment is answered.
 */
const REPLACED = 'attachment reader: past its memory mark, replaced';
/** A PNM's width×height. */
const sizeOf = (pnm: Uint8Array | null) => (pnm ? Buffer.from(pnm).toString('latin1', 0, 32).split('\n')[1]!.replace(' ', '×') : null);

function readerWith(memoryMarkMb?: number) {
  const warnings: { details: object; message: string }[] = [];
  const reader = new AttachmentReader({
    size: 1,
    maxQueue: 4,
    // OCR of a large image takes seconds on a loaded machine: the deadline is not what is tested here.
    timeoutMs: 120_000,
    // Starting a reader (Tesseract's WebAssembly and its language) took over 15 s beside a loaded CI run.
    startTimeoutMs: 90_000,
    ocrLanguages: [ocrLanguage('eng')],
    ...(memoryMarkMb === undefined ? {} : { memoryMarkMb }),
    log: { warn: (details, message) => void warnings.push({ details, message }), error: (details, message) => void warnings.push({ details, message }) },
  });
  const read = async (png: Buffer) => (await reader.read([{ kind: 'image', contentBase64: png.toString('base64') }]))[0]!;
  const replaced = () => warnings.filter((w) => w.message === REPLACED);
  return { reader, warnings, read, replaced };
}

describe('OCR memory', { timeout: 180_000 }, () => {
  let browser: Browser;
  const readers: AttachmentReader[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
  });
  afterAll(async () => {
    await Promise.all(readers.map((r) => r.close()));
    await browser?.close();
  });

  it('a 16-bit 4000×4000 PNG is scaled down first: the reader stays under its mark (it reached 272 MiB as it was)', async () => {
    const r = readerWith();
    readers.push(r.reader);
    expect((await r.read(pngOf(4000, 4000, 16))).status).toBe('read');
    expect((await r.read(pngOf(4000, 4000, 16))).status).toBe('read');
    expect(r.replaced()).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('scales to at most 4 megapixels of grey and keeps the text readable', async () => {
    expect(scaledPng(pngOf(1280, 720, 8))).toBeNull(); // small 8-bit ones are read as they are
    expect(sizeOf(scaledPng(pngOf(1280, 720, 16)))).toBe('1280×720');
    expect(sizeOf(scaledPng(pngOf(4000, 4000, 16)))).toBe('2000×2000');
    // A 6-megapixel screenshot with 32 px text (a high-density screen), scaled by half.
    const text = 'Error E-4417: the licence server could not be reached. Check the proxy settings and try again.';
    const png = await renderHtml(browser, `<body style="margin:80px;font:32px sans-serif;background:#fff;color:#111"><p>${text}</p></body>`, { width: 3000, height: 2000 });
    expect(sizeOf(scaledPng(png))).toBe('1500×1000');
    const r = readerWith();
    readers.push(r.reader);
    const reading = await r.read(png);
    expect(reading.status).toBe('read');
    const found = words(reading.text ?? '');
    const shown = words(text);
    expect(shown.filter((w) => found.includes(w)).length / shown.length).toBeGreaterThanOrEqual(0.9);
  });

  it('replaces a reader past its memory mark once its attachment is answered, and reads on', async () => {
    // Measured: ~50 MiB (WebAssembly memory and heap) after a 1280×720 screenshot, ~84 after 2560×1440 (read as it is).
    const r = readerWith(70);
    readers.push(r.reader);
    expect((await r.read(pngOf(1280, 720, 8))).status).toBe('read');
    expect(r.replaced()).toEqual([]);
    expect((await r.read(pngOf(2560, 1440, 8))).status).toBe('read');
    expect(r.replaced()).toHaveLength(1);
    expect((r.replaced()[0]!.details as { memoryMb: number }).memoryMb).toBeGreaterThan(70);
    // The next attachment gets a new reader, which starts small again.
    expect((await r.read(pngOf(1280, 720, 8))).status).toBe('read');
    expect(r.replaced()).toHaveLength(1);
    expect(r.warnings.filter((w) => w.message !== REPLACED)).toEqual([]);
  });
});
