// A small, dependency-free XML/HTML tree builder and a plain-text writer,
// shared by the converters in this folder. It is good enough for the
// well-formed Mallard pages of gnome-user-docs and the Sphinx-generated HTML
// of python3-doc; it is not a general HTML5 parser.

const VOID_HTML = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta',
  'param', 'source', 'track', 'wbr',
]);
const RAW_HTML = new Set(['script', 'style']);

const NAMED_ENTITIES = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©',
  reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', lsquo: '‘',
  rsquo: '’', ldquo: '“', rdquo: '”', para: '¶', sect: '§', times: '×',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', laquo: '«', raquo: '»',
  middot: '·', bull: '•', deg: '°', plusmn: '±', shy: '',
};

export function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (m, e) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      try { return String.fromCodePoint(code); } catch { return m; }
    }
    return Object.prototype.hasOwnProperty.call(NAMED_ENTITIES, e) ? NAMED_ENTITIES[e] : m;
  });
}

function parseAttrs(s) {
  const attrs = {};
  const re = /([^\s=\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m;
  while ((m = re.exec(s))) {
    attrs[m[1]] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/**
 * Parse markup into a tree of { type: 'el', name, attrs, children, parent }
 * and { type: 'text', text } nodes. Comments, processing instructions and
 * doctypes are dropped; CDATA becomes text.
 */
export function parseMarkup(src, { html = false } = {}) {
  const root = { type: 'el', name: '#root', attrs: {}, children: [], parent: null };
  let cur = root;
  let i = 0;
  const pushText = (t) => { if (t) cur.children.push({ type: 'text', text: t }); };
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt < 0) { pushText(decodeEntities(src.slice(i))); break; }
    if (lt > i) pushText(decodeEntities(src.slice(i, lt)));
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt + 4);
      i = end < 0 ? src.length : end + 3;
      continue;
    }
    if (src.startsWith('<![CDATA[', lt)) {
      const end = src.indexOf(']]>', lt + 9);
      pushText(src.slice(lt + 9, end < 0 ? src.length : end));
      i = end < 0 ? src.length : end + 3;
      continue;
    }
    if (src[lt + 1] === '?' || src[lt + 1] === '!') {
      const end = src.indexOf('>', lt);
      i = end < 0 ? src.length : end + 1;
      continue;
    }
    // find the end of the tag, respecting quoted attribute values
    let j = lt + 1;
    let q = null;
    while (j < src.length) {
      const c = src[j];
      if (q) { if (c === q) q = null; } else if (c === '"' || c === "'") q = c; else if (c === '>') break;
      j++;
    }
    const inner = src.slice(lt + 1, j);
    i = j + 1;
    if (inner[0] === '/') {
      const name = inner.slice(1).trim();
      const key = html ? name.toLowerCase() : name;
      let n = cur;
      while (n && n.name !== key) n = n.parent;
      if (n && n.parent) cur = n.parent; // unmatched closing tags are ignored
      continue;
    }
    const selfClosing = inner.endsWith('/');
    const body = selfClosing ? inner.slice(0, -1) : inner;
    const m = /^([^\s\/>]+)\s*([\s\S]*)$/.exec(body);
    if (!m) { pushText('<'); i = lt + 1; continue; }
    const name = html ? m[1].toLowerCase() : m[1];
    const el = { type: 'el', name, attrs: parseAttrs(m[2]), children: [], parent: cur };
    cur.children.push(el);
    if (selfClosing || (html && VOID_HTML.has(name))) continue;
    if (html && RAW_HTML.has(name)) {
      const end = src.toLowerCase().indexOf(`</${name}`, i);
      const stop = end < 0 ? src.length : end;
      el.children.push({ type: 'text', text: src.slice(i, stop) });
      const close = src.indexOf('>', stop);
      i = close < 0 ? src.length : close + 1;
      continue;
    }
    cur = el;
  }
  return root;
}

export function* walk(node) {
  yield node;
  if (node.type === 'el') for (const c of node.children) yield* walk(c);
}

export function findAll(node, pred) {
  const out = [];
  for (const n of walk(node)) if (n.type === 'el' && pred(n)) out.push(n);
  return out;
}

export function findFirst(node, pred) {
  for (const n of walk(node)) if (n.type === 'el' && pred(n)) return n;
  return null;
}

export function hasClass(el, cls) {
  return (el.attrs?.class ?? '').split(/\s+/).includes(cls);
}

export function textOf(node) {
  if (node.type === 'text') return node.text;
  return node.children.map(textOf).join('');
}

export const squash = (s) => s.replace(/\s+/g, ' ').trim();

/**
 * Collects plain text as a list of blocks. Inline text accumulates into the
 * current paragraph; block elements call paragraph()/flush(). List items get
 * a bullet on their first line and indentation on later ones; code blocks
 * keep their line breaks.
 */
export class TextWriter {
  constructor() {
    this.blocks = []; // { kind: 'p'|'li'|'pre'|'h'|'row', text }
    this.buf = '';
    this.listStack = []; // { ordered, n, pending: bullet string or null, indent }
  }
  inline(s) { this.buf += s; }
  flush() {
    const t = squash(this.buf);
    this.buf = '';
    if (!t) return;
    const li = this.listStack[this.listStack.length - 1];
    if (li) {
      const indent = '  '.repeat(this.listStack.length - 1);
      if (li.pending) {
        this.blocks.push({ kind: 'li', text: indent + li.pending + t });
        li.pending = null;
      } else {
        this.blocks.push({ kind: 'li', text: indent + '  ' + t });
      }
    } else {
      this.blocks.push({ kind: 'p', text: t });
    }
  }
  row(t) {
    this.flush();
    t = squash(t);
    if (t) this.blocks.push({ kind: 'row', text: t });
  }
  heading(t) {
    this.flush();
    t = squash(t);
    if (t) this.blocks.push({ kind: 'h', text: t });
  }
  pre(t) {
    this.flush();
    const lines = t.replace(/\r/g, '').replace(/\t/g, '    ').split('\n').map((l) => l.replace(/\s+$/, ''));
    while (lines.length && !lines[0].trim()) lines.shift();
    while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
    if (!lines.length) return;
    // drop common indentation
    const ind = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length));
    const depth = this.listStack.length ? '  '.repeat(this.listStack.length) : '';
    this.blocks.push({ kind: 'pre', text: lines.map((l) => depth + l.slice(ind)).join('\n') });
  }
  startList(ordered) { this.flush(); this.listStack.push({ ordered, n: 0, pending: null }); }
  endList() { this.flush(); this.listStack.pop(); }
  startItem(label) {
    this.flush();
    const li = this.listStack[this.listStack.length - 1];
    if (!li) return;
    li.n++;
    li.pending = label ?? (li.ordered ? `${li.n}. ` : '- ');
  }
  endItem() { this.flush(); const li = this.listStack[this.listStack.length - 1]; if (li) li.pending = null; }
  result() {
    this.flush();
    let out = '';
    let prev = null;
    for (const b of this.blocks) {
      if (prev) out += (b.kind === prev.kind && (b.kind === 'li' || b.kind === 'row')) || prev.kind === 'h' ? '\n' : '\n\n';
      out += b.text;
      prev = b;
    }
    return out.trim();
  }
}

/** Cut a body at a paragraph (or line) boundary so it is at most max characters. */
export function capLength(body, max) {
  if (body.length <= max) return body;
  let cut = body.lastIndexOf('\n\n', max);
  if (cut < max * 0.6) cut = body.lastIndexOf('\n', max);
  if (cut < max * 0.6) cut = body.lastIndexOf(' ', max);
  if (cut <= 0) cut = max;
  return body.slice(0, cut).trim();
}
