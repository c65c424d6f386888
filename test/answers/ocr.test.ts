import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ocrLanguage } from '../../src/answers/attachment-reader/ocr.js';
import { AttachmentReader } from '../../src/answers/attachment-reader/reader-pool.js';
import { useTestApp } from '../helper.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../web/browser.js';
import { ARTICLES, answerWorkspace, ask } from './answer-fixtures.js';
import { pngHeader } from './attachment-bombs.js';
import { greyGif, greyPixels, OCR_SAMPLES, OCR_STYLES, renderHtml, renderPhoto, renderSample, sampleWords, scannedPdf, wordErrors, words } from './ocr-images.js';

// OCR of one screenshot takes 0.1-0.3 s on a quiet machine and several seconds on a loaded one:
// these tests are about what is read, so the deadline is far away.
const GENEROUS_MS = '60000';
// The tests themselves render and read dozens of images: minutes on a loaded 2-core CI machine.

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
});
afterAll(() => browser?.close());

const silent = { warn: () => {}, error: () => {} };

describe('OCR in the attachment readers', { timeout: 240_000 }, () => {
  let reader: AttachmentReader;
  beforeAll(() => {
    reader = new AttachmentReader({ size: 2, maxQueue: 20, timeoutMs: Number(GENEROUS_MS), log: silent, ocrLanguages: [ocrLanguage('eng')] });
  });
  afterAll(() => reader.close());

  it('reads the words of error dialogs and help snippets (fonts, sizes, light and dark, PNG and JPEG) with at least 95 % word accuracy', async () => {
    // Word accuracy is 1 - (substituted + missed + extra words) / words shown. Over the title and
    // message; the figure with the dialogs' button labels counted too is logged (docs/answer-api.md): Tesseract
    // misses "Cancel" and "OK" inside their drawn buttons, words no answer depends on.
    const totals = { prose: { words: 0, errors: 0 }, all: { words: 0, errors: 0 } };
    const worst: { sample: string; style: string; format: string; errors: number; text: string }[] = [];
    let images = 0;
    for (const [i, sample] of OCR_SAMPLES.entries()) {
      for (const format of ['png', 'jpeg'] as const) {
        for (const style of [OCR_STYLES[i % OCR_STYLES.length]!, OCR_STYLES[(i + 3) % OCR_STYLES.length]!]) {
          const image = await renderSample(browser, sample, style, format);
          const [reading] = await reader.read([{ kind: 'image', contentBase64: image.toString('base64') }]);
          expect(reading).toMatchObject({ kind: 'image', status: 'read' });
          images++;
          const found = words(reading!.text ?? '');
          for (const [key, buttons] of [['prose', false], ['all', true]] as const) {
            const expected = sampleWords(sample, { buttons });
            const errors = wordErrors(expected, found);
            totals[key].words += expected.length;
            totals[key].errors += errors;
            if (key === 'prose' && errors) worst.push({ sample: sample.article, style: JSON.stringify(style), format, errors, text: reading!.text ?? '' });
          }
        }
      }
    }
    const accuracy = (key: 'prose' | 'all') => 1 - totals[key].errors / totals[key].words;
    console.info(
      `OCR word accuracy over ${images} images: ${(accuracy('prose') * 100).toFixed(1)} % of ${totals.prose.words} title and message words; ` +
        `${(accuracy('all') * 100).toFixed(1)} % with the button labels. Images with errors:`,
      JSON.stringify(worst),
    );
    expect(accuracy('prose')).toBeGreaterThanOrEqual(0.95);
  });

  it('reads scanned PDFs (no text layer) by OCR of their page pictures: a JPEG, and grey bitmaps with and without PNG row filters', async () => {
    const sample = OCR_SAMPLES[0]!;
    const jpeg = await renderSample(browser, sample, OCR_STYLES[0]!, 'jpeg');
    const line = 'Error E-4417: your calendar could not be synced.';
    const grey = await greyPixels(browser, 900, 200, `g.fillStyle = '#fff'; g.fillRect(0, 0, w, h); g.fillStyle = '#000'; g.font = '30px sans-serif'; g.fillText('${sample.title}', 24, 70); g.fillText('${line}', 24, 140);`);
    const cases = [
      { name: 'JPEG', pdf: scannedPdf({ jpeg, width: 1280, height: 720 }), expected: sampleWords(sample, { buttons: false }) },
      { name: 'grey, no predictor', pdf: scannedPdf({ grey, width: 900, height: 200, predictor: false }), expected: words(`${sample.title} ${line}`) },
      { name: 'grey, PNG predictor', pdf: scannedPdf({ grey, width: 900, height: 200, predictor: true }), expected: words(`${sample.title} ${line}`) },
    ];
    for (const { name, pdf, expected } of cases) {
      const [reading] = await reader.read([{ kind: 'pdf', contentBase64: pdf.toString('base64') }]);
      expect(reading, name).toMatchObject({ kind: 'pdf', status: 'read' });
      const errors = wordErrors(expected, words(reading!.text ?? ''));
      expect(errors / expected.length, `${name}: ${reading!.text}`).toBeLessThanOrEqual(0.1);
    }
  });

  it('reads a scanned PDF of a picture without words as read with nothing found; one whose pictures do not decode, or are too large, stays unreadable', async () => {
    const blank = await greyPixels(browser, 600, 400, `const r = g.createLinearGradient(0, 0, w, h); r.addColorStop(0, '#345'); r.addColorStop(1, '#9ab'); g.fillStyle = r; g.fillRect(0, 0, w, h);`);
    const [photo] = await reader.read([{ kind: 'pdf', contentBase64: scannedPdf({ grey: blank, width: 600, height: 400, predictor: false }).toString('base64') }]);
    expect(photo).toEqual({ kind: 'pdf', status: 'read' });
    const broken = scannedPdf({ jpeg: Buffer.from('not a JPEG at all '.repeat(100)), width: 600, height: 400 });
    const [unreadable] = await reader.read([{ kind: 'pdf', contentBase64: broken.toString('base64') }]);
    expect(unreadable).toEqual({ kind: 'pdf', status: 'unreadable' });
    // A page picture over the OCR's pixel cap (64 megapixels of zeros, 64 KB deflated) is never inflated.
    const huge = scannedPdf({ grey: new Uint8Array(8000 * 8000), width: 8000, height: 8000, predictor: false });
    const [skipped] = await reader.read([{ kind: 'pdf', contentBase64: huge.toString('base64') }]);
    expect(skipped).toEqual({ kind: 'pdf', status: 'unreadable' });
  });

  it('reads WebP and the first frame of a GIF', async () => {
    const webp = await renderSample(browser, OCR_SAMPLES[0]!, OCR_STYLES[0]!, 'webp', { width: 800, height: 400 });
    const draw = (line: string) => `g.fillStyle='#fff';g.fillRect(0,0,w,h);g.fillStyle='#000';g.font='22px sans-serif';g.fillText(${JSON.stringify(line)},20,60)`;
    const first = await greyPixels(browser, 640, 100, draw('Error E-4417: calendar sync failed'));
    const second = await greyPixels(browser, 640, 100, draw('Payment declined by the bank'));
    const gif = greyGif(640, 100, [first, second]);
    const [fromWebp, fromGif] = await reader.read([
      { kind: 'image', contentBase64: webp.toString('base64') },
      { kind: 'image', contentBase64: gif.toString('base64') },
    ]);
    expect(fromWebp).toMatchObject({ status: 'read', text: expect.stringContaining('E-4417') });
    expect(fromGif).toMatchObject({ status: 'read', text: expect.stringContaining('calendar sync failed') });
    expect(fromGif!.text).not.toContain('Payment');
  });

  it('reads a photo without words as read with nothing found, and refuses images by their header as before', async () => {
    const readings = await reader.read([
      { kind: 'image', contentBase64: (await renderPhoto(browser)).toString('base64') },
      { kind: 'image', contentBase64: pngHeader(100_000, 100_000).toString('base64') },
      // A valid header over pixels that are not there: nothing to decode.
      { kind: 'image', contentBase64: pngHeader(1200, 800).toString('base64') },
      { kind: 'image', contentBase64: Buffer.from('not an image').toString('base64') },
    ]);
    expect(readings).toEqual([
      { kind: 'image', status: 'read' },
      { kind: 'image', status: 'too_large' },
      { kind: 'image', status: 'unreadable' },
      { kind: 'image', status: 'unreadable' },
    ]);
  });

  it('terminates a reader still recognising at the deadline', async () => {
    const warnings: string[] = [];
    const slow = new AttachmentReader({ size: 1, maxQueue: 4, timeoutMs: 200, log: { warn: (_: object, m: string) => void warnings.push(m), error: () => {} }, ocrLanguages: [ocrLanguage('eng')] });
    try {
      // A page of small text: seconds of recognition, far past 200 ms.
      const lines = Array.from({ length: 200 }, (_, n) => `<div>${n} The quick brown fox jumps over the lazy dog. `.repeat(8) + '</div>').join('');
      const page = (await renderHtml(browser, `<body style="margin:4px;font:11px serif;white-space:nowrap">${lines}</body>`, { width: 2400, height: 2600 })).toString('base64');
      await slow.read([{ kind: 'image', contentBase64: 'AA==' }]); // started: the deadline counts from here
      expect(await slow.read([{ kind: 'image', contentBase64: page }])).toEqual([{ kind: 'image', status: 'timed_out' }]);
      expect(warnings).toContain('attachment reader: deadline passed, reader terminated');
      expect(slow.size).toBe(0);
    } finally {
      await slow.close();
    }
  });
});

describe('screenshots on /v1/answer', { timeout: 240_000 }, () => {
  const t = useTestApp({ ATTACHMENT_READ_TIMEOUT_MS: GENEROUS_MS });

  it('cites the right article when the only useful text is in the image, as often as when it is typed', async () => {
    const w = await answerWorkspace(t);
    let typed = 0;
    let fromImage = 0;
    const misses: string[] = [];
    for (const [i, sample] of OCR_SAMPLES.entries()) {
      const typedRes = await ask(t, w.token, { message: `${sample.title}. ${sample.text}` });
      if (typedRes.json().sources[0]?.externalId === sample.article) typed++;
      const image = await renderSample(browser, sample, OCR_STYLES[i % OCR_STYLES.length]!, i % 2 ? 'jpeg' : 'png');
      const res = await ask(t, w.token, { message: 'Hi, I got this, see the attached screenshot.', attachments: [{ mime: i % 2 ? 'image/jpeg' : 'image/png', contentBase64: image.toString('base64'), filename: 'screenshot.png' }] });
      expect(res.statusCode).toBe(200);
      if (res.json().sources[0]?.externalId === sample.article) fromImage++;
      else misses.push(`${sample.article} -> ${res.json().sources[0]?.externalId}`);
      const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: res.json().conversationId } });
      expect(turn.attachments).toEqual([{ filename: 'screenshot.png', mime: i % 2 ? 'image/jpeg' : 'image/png' }]);
      // The text read is never kept; a reply quoting the article may say the same words ("Allow notifications…").
      const quoted = ARTICLES.some((a) => a.body.includes(sample.text.slice(0, 20)));
      expect(JSON.stringify(quoted ? { ...turn, reply: null } : turn)).not.toContain(sample.text.slice(0, 20));
    }
    console.info(`recall@1: typed ${typed}/${OCR_SAMPLES.length}, in a screenshot ${fromImage}/${OCR_SAMPLES.length}`, misses);
    expect(typed).toBe(OCR_SAMPLES.length);
    expect(fromImage).toBe(typed);
  });

  it('cites the right article when the only useful text is in a scanned PDF', async () => {
    const w = await answerWorkspace(t);
    const misses: string[] = [];
    for (const [i, sample] of OCR_SAMPLES.entries()) {
      const jpeg = await renderSample(browser, sample, OCR_STYLES[(i + 1) % OCR_STYLES.length]!, 'jpeg');
      const pdf = scannedPdf({ jpeg, width: 1280, height: 720 });
      const res = await ask(t, w.token, { message: 'Hello, the scan of the message is attached.', attachments: [{ mime: 'application/pdf', contentBase64: pdf.toString('base64'), filename: 'scan.pdf' }] });
      expect(res.statusCode).toBe(200);
      if (res.json().sources[0]?.externalId !== sample.article) misses.push(`${sample.article} -> ${res.json().sources[0]?.externalId}`);
    }
    expect(misses).toEqual([]);
  });

  it('a photo without words counts as read: the attachment fallback does not apply', async () => {
    const w = await answerWorkspace(t);
    await w.admin('agent', 'update', '--workspace', String(w.workspaceId), '--id', w.agentId, '--attachment-fallback', 'needs_human');
    const res = await ask(t, w.token, { message: 'how do I reset my password?', attachments: [{ mime: 'image/jpeg', contentBase64: (await renderPhoto(browser)).toString('base64') }] });
    expect(res.json()).toMatchObject({ needs_human: false, sources: [{ externalId: 'pw-reset' }] });
  });
});

describe('a full reader queue on /v1/answer', { timeout: 240_000 }, () => {
  const t = useTestApp({ ATTACHMENT_READ_TIMEOUT_MS: GENEROUS_MS, ATTACHMENT_READERS: '1', ATTACHMENT_READ_QUEUE: '0' });

  it('skips what does not fit with a note in the conversation, and still answers 200', async () => {
    const w = await answerWorkspace(t);
    const image = (await renderSample(browser, OCR_SAMPLES[0]!, OCR_STYLES[0]!, 'png')).toString('base64');
    const res = await ask(t, w.token, {
      message: 'see attached',
      attachments: [
        { mime: 'image/png', contentBase64: image, filename: 'one.png' },
        { mime: 'image/png', contentBase64: image, filename: 'two.png' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().sources[0].externalId).toBe('e4417');
    const turn = await t.db.prisma.conversationTurn.findFirstOrThrow({ where: { conversationId: res.json().conversationId } });
    expect(turn.attachments).toEqual([
      { filename: 'one.png', mime: 'image/png' },
      { filename: 'two.png', mime: 'image/png', note: 'skipped: every attachment reader was busy' },
    ]);
  });
});
