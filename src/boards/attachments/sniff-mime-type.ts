/**
 * The MIME type of an attachment, decided from its first bytes: the client's Content-Type is
 * never taken as it is. Whatever is not recognised is `application/octet-stream`, and nothing
 * is ever labelled as a type a browser would run (HTML, SVG, XML and scripts are `text/plain`).
 */

/** How many leading bytes the sniffer looks at; the upload keeps this much of the file's head. */
export const SNIFF_BYTES = 8192;

const startsWith = (head: Uint8Array, bytes: number[], offset = 0) =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Signatures at a fixed offset (and `also` at the start), checked in order. */
const MAGIC: { type: string; bytes: number[]; offset?: number; also?: number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: ascii('GIF87a') },
  { type: 'image/gif', bytes: ascii('GIF89a') },
  // "BM", the file size, then four reserved zero bytes: "BM" alone starts too many texts.
  { type: 'image/bmp', bytes: [0x00, 0x00, 0x00, 0x00], offset: 6, also: ascii('BM') },
  { type: 'image/tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { type: 'image/tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { type: 'image/x-icon', bytes: [0x00, 0x00, 0x01, 0x00] },
  { type: 'application/pdf', bytes: ascii('%PDF-') },
  { type: 'application/gzip', bytes: [0x1f, 0x8b, 0x08] },
  { type: 'application/x-bzip2', bytes: [0x31, 0x41, 0x59, 0x26, 0x53, 0x59], offset: 4, also: ascii('BZh') },
  { type: 'application/x-xz', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { type: 'application/zstd', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { type: 'application/x-7z-compressed', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { type: 'application/vnd.rar', bytes: ascii('Rar!\x1a\x07') },
  { type: 'application/x-tar', bytes: ascii('ustar\0'), offset: 257 },
  { type: 'application/x-tar', bytes: ascii('ustar  \0'), offset: 257 },
  { type: 'audio/mpeg', bytes: [...ascii('ID3'), 0x03] },
  { type: 'audio/mpeg', bytes: [...ascii('ID3'), 0x04] },
  { type: 'audio/ogg', bytes: [...ascii('OggS'), 0x00] },
  { type: 'audio/flac', bytes: [...ascii('fLaC'), 0x00] },
  { type: 'audio/flac', bytes: [...ascii('fLaC'), 0x80] },
  { type: 'video/webm', bytes: [0x1a, 0x45, 0xdf, 0xa3] },
  { type: 'application/wasm', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { type: 'application/x-sqlite3', bytes: ascii('SQLite format 3\0') },
];

/** RIFF containers: the form type at offset 8 says what it holds. */
const RIFF: Record<string, string> = { WEBP: 'image/webp', WAVE: 'audio/wav', 'AVI ': 'video/x-msvideo' };

/** ISO media (`....ftyp<brand>`): the major brand says which. */
function isoMedia(head: Uint8Array): string | null {
  if (!startsWith(head, ascii('ftyp'), 4)) return null;
  const brand = String.fromCharCode(...head.subarray(8, 12));
  if (/^(heic|heix|heim|heis|mif1)$/.test(brand)) return 'image/heic';
  if (brand === 'avif') return 'image/avif';
  if (brand.startsWith('qt')) return 'video/quicktime';
  if (brand.startsWith('M4A')) return 'audio/mp4';
  return 'video/mp4';
}

/**
 * A ZIP archive, or one of the formats built on it. OpenDocument and EPUB store their type as an
 * uncompressed first entry named `mimetype`; Office Open XML files are recognised by the names of
 * their parts, which appear in the local headers near the start.
 */
function zipBased(head: Uint8Array): string {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1');
  const declared = /^PK\x03\x04[\s\S]{26}mimetype(application\/[\w.+-]{1,80})/.exec(text)?.[1];
  if (declared === 'application/epub+zip' || declared?.startsWith('application/vnd.oasis.opendocument.')) return declared;
  if (text.includes('word/')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  if (text.includes('xl/')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (text.includes('ppt/')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
  if (text.includes('META-INF/MANIFEST.MF')) return 'application/java-archive';
  return 'application/zip';
}

/**
 * Text: valid UTF-8 (a character cut off at the end of the head is fine) without NUL or other
 * control bytes besides tab, line breaks, form feed and escape.
 */
function isText(head: Uint8Array): boolean {
  for (const byte of head) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0b && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) return false;
    if (byte === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Text formats a client may name more precisely than "text/plain"; taken from the client only
 * when the bytes are text. Nothing here is ever rendered or run by a browser.
 */
const TEXT_REFINEMENTS = new Set(['text/csv', 'text/markdown', 'text/tab-separated-values', 'text/calendar', 'text/vcard', 'application/json']);

/** The MIME type of a file whose first bytes are `head`; `declared` is what the client said (a hint only). */
export function sniffMimeType(head: Uint8Array, declared?: string): string {
  for (const m of MAGIC) if (startsWith(head, m.bytes, m.offset) && (!m.also || startsWith(head, m.also))) return m.type;
  if (startsWith(head, ascii('RIFF')) && head.length >= 12) {
    const form = RIFF[String.fromCharCode(...head.subarray(8, 12))];
    if (form) return form;
  }
  const iso = isoMedia(head);
  if (iso) return iso;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return zipBased(head);
  if (isText(head)) {
    const hint = declared?.split(';')[0]?.trim().toLowerCase();
    return hint && TEXT_REFINEMENTS.has(hint) ? hint : 'text/plain';
  }
  return 'application/octet-stream';
}
