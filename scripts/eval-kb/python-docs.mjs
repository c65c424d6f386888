#!/usr/bin/env node
// Turns the Python FAQ and tutorial (Debian package python3-doc, which pulls in
// python3.11-doc: Sphinx HTML under /usr/share/doc/python3/html/) into
// eval/kb-python/articles.json.
//
//   node scripts/eval-kb/python-docs.mjs [HTML_DIR] [OUT_FILE]
//
// FAQ: one article per question (each innermost <section> under a FAQ page,
// with its h2 or h3 heading). Tutorial: one article per h2 section; a page's
// introduction before its first h2 becomes an article of its own when it has
// real text; an h2 section longer than MAX_BODY is split into its
// introduction and one article per h3 subsection.

import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkup, findFirst, hasClass, textOf, squash, TextWriter, capLength } from './markup.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const HTML = process.argv[2] ?? '/usr/share/doc/python3/html';
const OUT = process.argv[3] ?? resolve(here, '../../eval/kb-python/articles.json');
const BASE_URL = 'https://docs.python.org/3.11';
const MAX_BODY = 6000;
const MIN_INTRO = 300;
const MIN_FAQ_BODY = 40;

const isEl = (n) => n.type === 'el';
const isHeading = (n) => isEl(n) && /^h[1-6]$/.test(n.name);
const isSection = (n) => isEl(n) && n.name === 'section';

function headingText(h) {
  const w = new TextWriter();
  renderChildren(h, w);
  return w.result().replace(/\s+/g, ' ').replace(/¶/g, '').trim();
}
const stripNumber = (t) => t.replace(/^\d+(\.\d+)*\.\s+/, '');

function renderChildren(el, w) {
  for (const c of el.children) render(c, w);
}

function render(node, w) {
  if (node.type === 'text') { w.inline(node.text); return; }
  const el = node;
  if (el.name === 'nav' || el.name === 'script' || el.name === 'style' || el.name === 'img') return;
  if (el.name === 'a' && (hasClass(el, 'headerlink') || hasClass(el, 'footnote-reference'))) return;
  if (el.name === 'aside' && (hasClass(el, 'footnote-list') || hasClass(el, 'footnote'))) return;
  switch (el.name) {
    case 'section':
      w.flush();
      renderChildren(el, w);
      w.flush();
      return;
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      w.heading(stripNumber(headingText(el)));
      return;
    case 'pre':
      w.pre(textOf(el));
      return;
    case 'ul':
      w.startList(false);
      renderChildren(el, w);
      w.endList();
      return;
    case 'ol':
      w.startList(true);
      renderChildren(el, w);
      w.endList();
      return;
    case 'li':
      w.startItem();
      renderChildren(el, w);
      w.endItem();
      return;
    case 'tr': {
      const cells = el.children.filter((c) => isEl(c) && (c.name === 'td' || c.name === 'th'));
      const texts = cells.map((c) => { const cw = new TextWriter(); renderChildren(c, cw); return squash(cw.result()); });
      if (texts.some(Boolean)) w.row(texts.join(' | '));
      return;
    }
    case 'p':
      if (hasClass(el, 'admonition-title')) {
        w.flush();
        w.inline(squash(textOf(el)) + ': ');
        return;
      }
    // falls through
    case 'div': case 'blockquote': case 'dl': case 'dt': case 'dd': case 'table':
    case 'thead': case 'tbody': case 'figure': case 'figcaption': case 'aside':
      w.flush();
      renderChildren(el, w);
      w.flush();
      return;
    case 'br':
      w.inline(' ');
      return;
    default:
      renderChildren(el, w);
  }
}

/** Render a section's own content: everything but its heading and (optionally) its subsections. */
function renderSection(sec, { withSubsections }) {
  const w = new TextWriter();
  for (const c of sec.children) {
    if (isHeading(c)) continue;
    if (!withSubsections && isSection(c)) continue;
    render(c, w);
  }
  return w.result();
}

const sectionTitle = (sec) => {
  const h = sec.children.find(isHeading);
  return h ? stripNumber(headingText(h)) : '';
};
const subsections = (sec) => sec.children.filter(isSection);
const hasSubsection = (sec) => !!findFirst({ type: 'el', name: '#', children: sec.children }, (e) => e.name === 'section');

function loadPage(file) {
  const root = parseMarkup(readFileSync(file, 'utf8'), { html: true });
  const body = findFirst(root, (e) => e.name === 'div' && hasClass(e, 'body') && e.attrs.role === 'main');
  if (!body) throw new Error(`no main body in ${file}`);
  const top = findFirst(body, isSection);
  return top;
}

const articles = [];
const counts = { faq: 0, tutorialSection: 0, tutorialIntro: 0, tutorialSubsection: 0 };
const truncated = [];

function add(a) {
  if (a.body.length > MAX_BODY) { truncated.push(a.externalId); a.body = capLength(a.body, MAX_BODY); }
  articles.push(a);
}

// ---- FAQ
const faqDir = join(HTML, 'faq');
for (const f of readdirSync(faqDir).filter((f) => f.endsWith('.html') && f !== 'index.html').sort()) {
  const page = f.replace(/\.html$/, '');
  const top = loadPage(join(faqDir, f));
  const pageTitle = sectionTitle(top);
  const visit = (sec, depth) => {
    if (depth > 0 && !hasSubsection(sec)) {
      const body = renderSection(sec, { withSubsections: true });
      // an answer that only points elsewhere ("See the next question.") is no article
      if (!body || (body.length < MIN_FAQ_BODY && /^See [^.]*\.$/.test(body))) return;
      add({
        externalId: `py-faq-${page}-${sec.attrs.id}`,
        title: sectionTitle(sec),
        body,
        url: `${BASE_URL}/faq/${f}#${sec.attrs.id}`,
      });
      counts.faq++;
      return;
    }
    for (const s of subsections(sec)) visit(s, depth + 1);
  };
  visit(top, 0);
  if (!pageTitle) throw new Error(`no title in ${f}`);
}

// ---- Tutorial
const tutDir = join(HTML, 'tutorial');
for (const f of readdirSync(tutDir).filter((f) => f.endsWith('.html') && f !== 'index.html').sort()) {
  const page = f.replace(/\.html$/, '');
  const top = loadPage(join(tutDir, f));
  const pageTitle = sectionTitle(top);
  const intro = renderSection(top, { withSubsections: false });
  const secs = subsections(top);
  if (!secs.length || intro.length >= MIN_INTRO) {
    add({
      externalId: `py-tut-${page}`,
      title: pageTitle,
      body: secs.length ? intro : renderSection(top, { withSubsections: true }),
      url: `${BASE_URL}/tutorial/${f}`,
    });
    counts.tutorialIntro++;
  }
  for (const sec of secs) {
    const whole = renderSection(sec, { withSubsections: true });
    const subs = subsections(sec);
    if (whole.length <= MAX_BODY || !subs.length) {
      add({
        externalId: `py-tut-${page}-${sec.attrs.id}`,
        title: sectionTitle(sec) === 'Introduction' ? `${pageTitle}: Introduction` : sectionTitle(sec),
        body: whole,
        url: `${BASE_URL}/tutorial/${f}#${sec.attrs.id}`,
      });
      counts.tutorialSection++;
      continue;
    }
    const own = renderSection(sec, { withSubsections: false });
    if (own.length >= MIN_INTRO) {
      add({
        externalId: `py-tut-${page}-${sec.attrs.id}`,
        title: sectionTitle(sec),
        body: own,
        url: `${BASE_URL}/tutorial/${f}#${sec.attrs.id}`,
      });
      counts.tutorialSection++;
    }
    for (const sub of subs) {
      add({
        externalId: `py-tut-${page}-${sub.attrs.id}`,
        title: sectionTitle(sub),
        body: renderSection(sub, { withSubsections: true }),
        url: `${BASE_URL}/tutorial/${f}#${sub.attrs.id}`,
      });
      counts.tutorialSubsection++;
    }
  }
}

const ids = new Set();
for (const a of articles) {
  if (ids.has(a.externalId)) throw new Error(`duplicate id ${a.externalId}`);
  ids.add(a.externalId);
}
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, JSON.stringify(articles, null, 1) + '\n');
console.error(`wrote ${articles.length} articles to ${OUT}: ${JSON.stringify(counts)}`);
if (truncated.length) console.error(`cut at ${MAX_BODY} characters: ${truncated.join(', ')}`);
