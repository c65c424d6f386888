import { expect, it } from 'vitest';
import { pdfImages } from '../../src/answers/attachment-reader/pdf-images.js';
import { scannedPdf } from './ocr-images.js';

/** What a scanned PDF's pictures are taken out as, and what is refused before any decoding. */
const take = (pdf: Buffer, maxPixels = 16_000_000) => [...pdfImages(new Uint8Array(pdf), { maxImages: 50, maxPixels })];

/** A JPEG as far as a header reader sees it: start of image, a JFIF segment, a baseline frame of width × height, end. */
function jpegHeader(width: number, height: number) {
  const jfif = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  return Buffer.from([0xff, 0xd8, ...jfif, 0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]);
}

it('takes a JPEG page whose own header is within the pixel cap, and refuses one whose header is larger than its dictionary says', () => {
  expect(take(scannedPdf({ jpeg: jpegHeader(1280, 720), width: 1280, height: 720 }))).toHaveLength(1);
  // Declared 1000×1000, the JPEG itself 20000×20000: Tesseract would decode the JPEG's size.
  expect(take(scannedPdf({ jpeg: jpegHeader(20000, 20000), width: 1000, height: 1000 }))).toEqual([]);
});

it('reads a number given by reference as unknown, never as its first digits', () => {
  const pdf = scannedPdf({ jpeg: jpegHeader(1280, 720), width: 1280, height: 720 });
  const indirect = Buffer.from(pdf.toString('latin1').replace('/Width 1280 /Height 720', '/Width 40000 0 R /Height 40000 0 R'), 'latin1');
  expect(take(indirect)).toEqual([]);
});

it('gives grey and RGB deflated bitmaps as PNM, and stops at a picture that inflates past its declared size', () => {
  const grey = new Uint8Array(300 * 200).fill(200);
  const [pnm] = take(scannedPdf({ grey, width: 300, height: 200, predictor: true }));
  expect(Buffer.from(pnm!.subarray(0, 15)).toString('latin1')).toBe('P5\n300 200\n255\n');
  expect(pnm!.length).toBe(15 + 300 * 200);
  // Declares 200×200 grey, holds 300×200: more than 3 bytes a pixel would allow is not inflated.
  const lying = Buffer.from(scannedPdf({ grey: new Uint8Array(600 * 400), width: 600, height: 400, predictor: false }).toString('latin1').replace('/Width 600 /Height 400', '/Width 200 /Height 200'), 'latin1');
  expect(take(lying)).toEqual([]);
});

it('scans a file of 40,000 image dictionaries without any `endstream` in linear time', () => {
  const hostile = Buffer.from(`%PDF-1.4\n${'<</Subtype/Image/Width 900/Height 900/Filter/DCTDecode>>stream\nxx\n'.repeat(40_000)}%%EOF`, 'latin1');
  const started = performance.now();
  expect(take(hostile)).toEqual([]);
  // Before: a search for `endstream` from each of them, to the end of the file (53 s on this machine).
  expect(performance.now() - started).toBeLessThan(5_000);
});
