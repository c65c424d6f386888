/** A mail's two bodies: plain text and HTML with the same words. */
export interface ComposedMail {
  text: string;
  html: string;
}

export interface ComposeOptions {
  /** "Hello Ada," and the like; the first line. */
  greeting: string;
  /** Paragraphs before the link. */
  paragraphs: string[];
  /** A list of things, each with its own link (a digest of notifications): after the paragraphs. */
  items?: { text: string; url: string }[];
  /** The one thing to do: a button in HTML, and the link spelled out in both bodies. */
  action?: { label: string; url: string };
  /** Paragraphs after the link (why you got this, what to do if it was not you); one with a `url` ends with that link. */
  footer?: (string | { text: string; url: string })[];
}

/** The product's name, in every subject and signature. */
export const PRODUCT = 'Taskboard';

/** Characters that hide or reorder text (controls, zero-width, bidi overrides): a name must read as what it is. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
/** A link with a scheme (`https://…`, `mailto:…`, `javascript:…`) or starting `www.`. */
const LINK = /\b(?:[a-z][a-z0-9+.-]*:\/\/|(?:mailto|javascript|data|tel|sms):|www\.)\S*/gi;
/** Something a mail client would make a link of: a host name (`evil.example/reset`, `bob@evil.example`). */
const HOST_LIKE = /\b((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+)([a-z][a-z0-9-]*[a-z0-9])\b/gi;

/**
 * Text someone other than the server wrote (a person's or a board's name, a card title, a comment)
 * as mail shows it: hidden characters dropped, links replaced by "[link removed]", and host names
 * defanged (`evil[.]example`) so no mail client makes a link of them — the only links in our
 * mail are the ones the server makes, so nobody can send a link in our name. Stays escaped as all text is.
 */
export function freeText(s: string): string {
  return s
    .replace(HIDDEN, ' ')
    .replace(LINK, '[link removed]')
    .replace(HOST_LIKE, (_, labels: string, last: string) => `${labels.slice(0, -1).replace(/\./g, '[.]')}[.]${last}`)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A free-text name shown as a name: freeText, at most `max` characters, in quotation marks (its
 * own quotation marks made plain), so "Taskboard security team: reset at …" reads as the name
 * somebody chose, not as our words.
 */
export function quoted(name: string, max = 60): string {
  const plain = freeText(name).replace(/[“”"]/g, "'");
  return `“${plain.length > max ? `${plain.slice(0, max - 1)}…` : plain}”`;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The product's mail: the same words as plain text and as simple HTML (inline styles only, as mail
 * clients want), the link spelled out in both so it can be copied when a button does not work.
 */
export function composeMail({ greeting, paragraphs, items = [], action, footer = [] }: ComposeOptions): ComposedMail {
  const text = [
    greeting,
    ...paragraphs,
    ...items.map((item) => `- ${item.text}\n  ${item.url}`),
    ...(action ? [`${action.label}:\n${action.url}`] : []),
    ...footer.map((x) => (typeof x === 'string' ? x : `${x.text}\n${x.url}`)),
    `— ${PRODUCT}`,
  ].join('\n\n');
  const p = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${escape(s)}</p>`;
  const small = (x: string | { text: string; url: string }) =>
    typeof x === 'string'
      ? p(x, 'font-size:13px;color:#555')
      : `<p style="margin:0 0 16px;font-size:13px;color:#555">${escape(x.text)} <a href="${escape(x.url)}" style="color:#2563eb;word-break:break-all">${escape(x.url)}</a></p>`;
  const list = items.length
    ? `<ul style="margin:0 0 16px;padding-left:20px">${items.map((item) => `<li style="margin:0 0 10px">${escape(item.text)}<br><a href="${escape(item.url)}" style="color:#2563eb;font-size:13px;word-break:break-all">${escape(item.url)}</a></li>`).join('')}</ul>`
    : '';
  const button = action
    ? `<p style="margin:24px 0"><a href="${escape(action.url)}" style="background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600">${escape(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#555">Or open this link: <a href="${escape(action.url)}" style="color:#2563eb;word-break:break-all">${escape(action.url)}</a></p>`
    : '';
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2937">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:28px">
<p style="margin:0 0 20px;font-size:18px;font-weight:700;color:#2563eb">${PRODUCT}</p>
${p(greeting)}${paragraphs.map((x) => p(x)).join('')}${list}${button}${footer.map(small).join('')}
</div></body></html>`;
  return { text, html };
}
