import type { Browser } from 'playwright-core';
import { deflateSync } from 'node:zlib';

// Functions given to page.evaluate run in the page; the server's tsconfig has no DOM types.
declare const document: any;

/** A short text shown in an image, and the article that answers a customer who sends it. */
export interface OcrSample {
  text: string;
  article: string;
  /** A dialog (title, message, button) or a help-page snippet (heading, paragraph). */
  kind: 'dialog' | 'help';
  title: string;
}

/** What customers screenshot: error dialogs and help-page snippets, one per article of ARTICLES. */
export const OCR_SAMPLES: OcrSample[] = [
  { kind: 'dialog', title: 'Sync failed', text: 'Error E-4417: your calendar could not be synced. Try again later.', article: 'e4417' },
  { kind: 'help', title: 'Trouble signing in?', text: 'Forgot your password? We can e-mail you a reset link from the sign-in page.', article: 'pw-reset' },
  { kind: 'dialog', title: 'Download failed', text: 'The invoice could not be downloaded as a PDF file.', article: 'inv-pdf' },
  { kind: 'help', title: 'Invoices', text: 'Export your invoices as a CSV spreadsheet with one line per invoice.', article: 'inv-csv' },
  { kind: 'dialog', title: 'Billing', text: 'Are you sure you want to cancel your subscription?', article: 'cancel' },
  { kind: 'dialog', title: 'Notifications are off', text: 'Allow notifications in the Android app to receive push alerts.', article: 'android' },
  { kind: 'help', title: 'Integrations', text: 'Slack: new and completed tasks could not be posted to the channel.', article: 'slack' },
  { kind: 'dialog', title: 'Security', text: 'Your current password is incorrect, so it could not be changed.', article: 'pw-change' },
];

/** How a sample is drawn: font, size, light or dark. */
export interface OcrStyle {
  font: string;
  size: number;
  dark: boolean;
}

export const OCR_STYLES: OcrStyle[] = [
  { font: 'sans-serif', size: 15, dark: false },
  { font: 'serif', size: 18, dark: true },
  { font: 'monospace', size: 14, dark: false },
  { font: '"DejaVu Sans", sans-serif', size: 13, dark: true },
  { font: '"Liberation Serif", serif', size: 22, dark: false },
  { font: 'system-ui, sans-serif', size: 16, dark: true },
];

/** The words a reader should find in a sample's image: its title and text, and with `buttons` a dialog's button labels. */
export function sampleWords(sample: OcrSample, { buttons }: { buttons: boolean }): string[] {
  const labels = sample.kind === 'dialog' && buttons ? ' Cancel OK' : '';
  return words(`${sample.title} ${sample.text}${labels}`);
}

/** Lower-case words without surrounding punctuation, as word accuracy compares them. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

/** Word-level edit distance (substitutions, insertions, deletions). */
export function wordErrors(expected: string[], found: string[]): number {
  let previous = Array.from({ length: found.length + 1 }, (_, j) => j);
  for (let i = 1; i <= expected.length; i++) {
    const row = [i];
    for (let j = 1; j <= found.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (expected[i - 1] === found[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[found.length]!;
}

function html(sample: OcrSample, style: OcrStyle, width: number, height: number) {
  const [bg, panel, fg, muted, accent] = style.dark ? ['#111418', '#1f242b', '#e8eaed', '#aeb4bc', '#4c8dff'] : ['#eef0f3', '#ffffff', '#1b1f24', '#4a5563', '#1a64d6'];
  const body =
    sample.kind === 'dialog'
      ? `<div style="background:${panel};border-radius:10px;box-shadow:0 6px 24px #0006;padding:22px 26px;width:min(560px,80vw)">
           <div style="font-weight:bold;font-size:1.25em;margin-bottom:10px">${sample.title}</div>
           <div style="color:${muted};line-height:1.45">${sample.text}</div>
           <div style="text-align:right;margin-top:18px"><span style="padding:6px 14px;margin-right:8px;border:1px solid ${muted};border-radius:6px">Cancel</span><span style="padding:6px 18px;background:${accent};color:#fff;border-radius:6px">OK</span></div>
         </div>`
      : `<div style="max-width:640px;line-height:1.5"><h2 style="font-size:1.5em;margin:0 0 8px">${sample.title}</h2><p style="margin:0;color:${muted}">${sample.text}</p></div>`;
  return `<!doctype html><html><body style="margin:0;width:${width}px;height:${height}px;display:flex;align-items:center;justify-content:center;background:${bg};color:${fg};font-family:${style.font};font-size:${style.size}px">${body}</body></html>`;
}

/** A 1280×720 screenshot of the sample (or another size), as PNG, JPEG or WebP bytes. */
export async function renderSample(browser: Browser, sample: OcrSample, style: OcrStyle, format: 'png' | 'jpeg' | 'webp', size = { width: 1280, height: 720 }): Promise<Buffer> {
  const page = await browser.newPage({ viewport: size });
  try {
    await page.setContent(html(sample, style, size.width, size.height));
    if (format !== 'webp') return await page.screenshot({ type: format, ...(format === 'jpeg' ? { quality: 80 } : {}) });
    // Chromium writes WebP only from a canvas: the screenshot, redrawn.
    const png = (await page.screenshot({ type: 'png' })).toString('base64');
    const dataUrl: string = await page.evaluate(async (src: string) => {
      const img = document.createElement('img');
      img.src = `data:image/png;base64,${src}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      canvas.getContext('2d').drawImage(img, 0, 0);
      return canvas.toDataURL('image/webp', 0.9);
    }, png);
    return Buffer.from(dataUrl.split(',')[1]!, 'base64');
  } finally {
    await page.close();
  }
}

/** Grey levels (0-255) of a canvas the page draws: `draw` runs with `g` (the 2D context), `w` and `h`. */
export async function greyPixels(browser: Browser, width: number, height: number, draw: string): Promise<Uint8Array> {
  const page = await browser.newPage();
  try {
    const grey: number[] = await page.evaluate(
      ({ width: w, height: h, draw: code }: { width: number; height: number; draw: string }) => {
        const canvas = document.createElement('canvas');
        canvas.width = w;
        canvas.height = h;
        const g = canvas.getContext('2d');
        new Function('g', 'w', 'h', code)(g, w, h);
        const { data } = g.getImageData(0, 0, w, h);
        const out: number[] = [];
        for (let i = 0; i < data.length; i += 4) out.push(Math.round(0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]));
        return out;
      },
      { width, height, draw },
    );
    return Uint8Array.from(grey);
  } finally {
    await page.close();
  }
}

/**
 * A GIF of grey frames (Chromium writes no GIF). LZW at 9 bits with a clear code every 254
 * codes, so that no code ever grows: larger than a real encoder's output, valid all the same.
 */
export function greyGif(width: number, height: number, frames: Uint8Array[]): Buffer {
  const out: number[] = [];
  const bytes = (...b: number[]) => out.push(...b);
  const u16 = (n: number) => bytes(n & 0xff, n >> 8);
  bytes(...Buffer.from('GIF89a'));
  u16(width);
  u16(height);
  bytes(0xf7, 0, 0); // global colour table of 256 entries
  for (let i = 0; i < 256; i++) bytes(i, i, i);
  bytes(0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0); // loops forever
  for (const pixels of frames) {
    bytes(0x21, 0xf9, 4, 0, 50, 0, 0, 0); // 0.5 s a frame
    bytes(0x2c);
    u16(0);
    u16(0);
    u16(width);
    u16(height);
    bytes(0, 8);
    const codes: number[] = [256];
    pixels.forEach((p, i) => {
      codes.push(p);
      if ((i + 1) % 254 === 0) codes.push(256);
    });
    codes.push(257);
    const data: number[] = [];
    let acc = 0;
    let bits = 0;
    for (const code of codes) {
      acc |= code << bits;
      bits += 9;
      while (bits >= 8) {
        data.push(acc & 0xff);
        acc >>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) data.push(acc & 0xff);
    for (let i = 0; i < data.length; i += 255) {
      const block = data.slice(i, i + 255);
      bytes(block.length, ...block);
    }
    bytes(0);
  }
  bytes(0x3b);
  return Buffer.from(out);
}

/** A screenshot of any page, as PNG. */
export async function renderHtml(browser: Browser, content: string, size: { width: number; height: number }): Promise<Buffer> {
  const page = await browser.newPage({ viewport: size });
  try {
    await page.setContent(content);
    return await page.screenshot({ type: 'png' });
  } finally {
    await page.close();
  }
}

/** A photo without words (sky, sun, hills, a tree) as a JPEG. */
export async function renderPhoto(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  try {
    await page.setContent(`<!doctype html><body style="margin:0;height:768px;background:linear-gradient(#5a8fd8,#cfe3f7 60%,#6a9a4a 60%,#2f5a1f)">
      <div style="position:absolute;left:700px;top:90px;width:120px;height:120px;border-radius:50%;background:radial-gradient(#fff7c0,#ffcc33)"></div>
      <div style="position:absolute;left:-100px;top:380px;width:700px;height:300px;border-radius:50%;background:radial-gradient(#7fb35a,#3d6b28)"></div>
      <div style="position:absolute;left:520px;top:300px;width:30px;height:200px;background:#5b3a1e"></div>
      <div style="position:absolute;left:440px;top:200px;width:190px;height:170px;border-radius:50%;background:radial-gradient(#4f8f3a,#1f4a14)"></div></body>`);
    return await page.screenshot({ type: 'jpeg', quality: 85 });
  } finally {
    await page.close();
  }
}

/**
 * A one-page PDF with no text layer whose page is one picture, as a scanner writes it: a JPEG as
 * it is (DCTDecode), or 8-bit grey pixels deflated (FlateDecode), with PNG row filters (Predictor
 * 15: each row as "up", as PNG encoders often choose) or none.
 */
export function scannedPdf(image: { jpeg: Buffer; width: number; height: number } | { grey: Uint8Array; width: number; height: number; predictor: boolean }): Buffer {
  const { width, height } = image;
  let dict: string;
  let data: Buffer;
  if ('jpeg' in image) {
    dict = `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`;
    data = image.jpeg;
  } else {
    dict = `/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode${image.predictor ? ` /DecodeParms << /Predictor 15 /Colors 1 /Columns ${width} >>` : ''}`;
    const rows: Buffer[] = [];
    for (let y = 0; y < height; y++) {
      const row = Buffer.from(image.grey.subarray(y * width, (y + 1) * width));
      if (!image.predictor) rows.push(row);
      else {
        const up = Buffer.alloc(width + 1, 2);
        for (let x = 0; x < width; x++) up[x + 1] = (row[x]! - (y > 0 ? image.grey[(y - 1) * width + x]! : 0)) & 0xff;
        rows.push(up);
      }
    }
    data = deflateSync(Buffer.concat(rows));
  }
  const content = Buffer.from(`q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q\n`, 'latin1');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 'latin1'),
    Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`, 'latin1'),
    Buffer.concat([Buffer.from(`<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`, 'latin1'), content, Buffer.from('endstream', 'latin1')]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}
