#!/usr/bin/env node
// Turns the GNOME desktop user help (Debian package gnome-user-docs, Mallard
// pages in /usr/share/help/C/gnome-help/) into eval/kb-gnome/articles.json:
// one article per topic page, plus the guide pages that carry real text of
// their own. Pure navigation pages are skipped.
//
//   node scripts/eval-kb/gnome-help.mjs [SOURCE_DIR] [OUT_FILE]
//
// Conditional text (if:choose, if:test) is resolved for the plain GNOME
// desktop as shown on help.gnome.org: not GNOME Classic, not Ubuntu, not
// mobile, no install actions.

import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkup, findFirst, textOf, squash, TextWriter, capLength } from './markup.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SRC = process.argv[2] ?? '/usr/share/help/C/gnome-help';
const OUT = process.argv[3] ?? resolve(here, '../../eval/kb-gnome/articles.json');
const MAX_BODY = 6000;
const MIN_GUIDE_BODY = 400; // a guide page needs this much text of its own
const MIN_TOPIC_BODY = 150;

const TRUE_TOKENS = new Set(['platform:gnome', 'target:html', 'target:desktop']);

function testTrue(test) {
  // comma = or, whitespace = and, ! = not
  return test.split(',').some((alt) =>
    alt.trim().split(/\s+/).filter(Boolean).every((tok) =>
      tok.startsWith('!') ? !TRUE_TOKENS.has(tok.slice(1)) : TRUE_TOKENS.has(tok)));
}

const localName = (el) => el.name.replace(/^.*:/, '');
const prefix = (el) => (el.name.includes(':') ? el.name.split(':')[0] : '');

// ---- load every page first, to resolve link text (<link xref="id"/>)
const files = readdirSync(SRC).filter((f) => f.endsWith('.page')).sort();
const pages = new Map();
for (const f of files) {
  const root = parseMarkup(readFileSync(join(SRC, f), 'utf8'));
  const page = findFirst(root, (e) => e.name === 'page');
  if (!page) continue;
  const id = page.attrs.id ?? f.replace(/\.page$/, '');
  pages.set(id, { file: f, id, page, type: page.attrs.type ?? 'topic' });
}

function titleOf(el) {
  // the element's own <title> (not type="link"/"sort")
  const t = el.children.find((c) => c.type === 'el' && localName(c) === 'title' && !c.attrs.type);
  return t ? squash(plainInline(t)) : '';
}

let currentPage = null; // the page being rendered, for links within it (xref="#section")

function xrefText(xref) {
  const [pid, sid] = xref.split('#');
  const p = pid ? pages.get(pid) : currentPage;
  if (!p) return '';
  if (sid) {
    const sec = findFirst(p.page, (e) => e.attrs.id === sid);
    if (sec) return titleOf(sec);
  }
  return titleOf(p.page);
}

function plainInline(el) {
  const w = new TextWriter();
  renderChildren(el, w);
  return w.result().replace(/\n+/g, ' ');
}

function visible(el) {
  const t = el.attrs['if:test'];
  return t === undefined || testTrue(t);
}

const SKIP = new Set(['info', 'comment', 'links', 'thumb', 'rules', 'include', 'desc']);

function renderChildren(el, w) {
  for (const c of el.children) render(c, w);
}

function render(node, w) {
  if (node.type === 'text') { w.inline(node.text); return; }
  const el = node;
  if (!visible(el)) return;
  const name = localName(el);
  const pfx = prefix(el);
  if (pfx === 'tt' || pfx === 'uix' || pfx === 'its' || pfx === 'e') {
    if (name !== 'hi') return;
  }
  if (pfx === 'if') {
    if (name === 'choose') {
      const whens = el.children.filter((c) => c.type === 'el' && c.name === 'if:when');
      const hit = whens.find((c) => testTrue(c.attrs.test ?? ''));
      if (hit) { renderChildren(hit, w); return; }
      const els = el.children.find((c) => c.type === 'el' && c.name === 'if:else');
      if (els) { renderChildren(els, w); return; }
      for (const c of el.children) if (!(c.type === 'el' && c.name.startsWith('if:'))) render(c, w);
      return;
    }
    if (name === 'if') { if (testTrue(el.attrs.test ?? '')) renderChildren(el, w); return; }
    return;
  }
  if (SKIP.has(name)) return;
  switch (name) {
    case 'page':
      renderChildren(el, w);
      return;
    case 'title':
      if (el.attrs.type) return; // link/sort titles
      w.heading(plainInline(el));
      return;
    case 'subtitle':
      w.heading(plainInline(el));
      return;
    case 'section':
      w.flush();
      renderChildren(el, w);
      w.flush();
      return;
    case 'p':
    case 'note':
    case 'example':
    case 'quote':
    case 'synopsis':
    case 'div':
    case 'figure':
    case 'caption':
    case 'cite':
      w.flush();
      renderChildren(el, w);
      w.flush();
      return;
    case 'screen':
      w.pre(textOf(el));
      return;
    case 'code':
      if (isBlock(el)) { w.pre(textOf(el)); return; }
      w.inline(textOf(el));
      return;
    case 'steps':
      w.startList(true);
      renderChildren(el, w);
      w.endList();
      return;
    case 'list':
      w.startList(el.attrs.type === 'numbered');
      renderChildren(el, w);
      w.endList();
      return;
    case 'terms':
      w.startList(false);
      renderChildren(el, w);
      w.endList();
      return;
    case 'tree':
      w.flush();
      w.inline(textOf(el));
      w.flush();
      return;
    case 'item': {
      const parent = el.parent ? localName(el.parent) : '';
      if (parent === 'terms') {
        const titles = el.children.filter((c) => c.type === 'el' && localName(c) === 'title');
        const label = titles.map((t) => squash(plainInline(t))).join(', ');
        w.startItem(label ? `- ${label}: ` : undefined);
        for (const c of el.children) if (!(c.type === 'el' && localName(c) === 'title')) render(c, w);
        w.endItem();
        return;
      }
      w.startItem();
      renderChildren(el, w);
      w.endItem();
      return;
    }
    case 'table':
      w.flush();
      renderChildren(el, w);
      w.flush();
      return;
    case 'thead':
    case 'tbody':
    case 'tfoot':
      renderChildren(el, w);
      return;
    case 'tr': {
      w.flush();
      const cells = el.children.filter((c) => c.type === 'el' && (localName(c) === 'td' || localName(c) === 'th'));
      const texts = cells.map((c) => squash(plainInline(c))).filter(Boolean);
      if (texts.length) w.row(texts.join(' | '));
      return;
    }
    case 'media': {
      // block media (a screenshot with alternative text in <p>) is dropped;
      // an inline icon's fallback text is kept
      if (el.children.some((c) => c.type === 'el')) return;
      w.inline(textOf(el));
      return;
    }
    case 'keyseq': {
      const keys = el.children.filter((c) => c.type === 'el').map((c) => squash(plainInline(c)));
      const t = keys.length ? keys.join(el.attrs.type === 'sequence' ? ' ' : '+') : textOf(el);
      w.inline(t);
      return;
    }
    case 'guiseq': {
      const parts = el.children.filter((c) => c.type === 'el').map((c) => squash(plainInline(c)));
      w.inline(parts.join(' ▸ '));
      return;
    }
    case 'link': {
      const own = squash(plainInline(el));
      if (own) { renderChildren(el, w); return; }
      if (el.attrs.xref) { w.inline(xrefText(el.attrs.xref) || ''); return; }
      if (el.attrs.href) w.inline(el.attrs.href.replace(/^mailto:/, ''));
      return;
    }
    case 'br':
      w.inline(' ');
      return;
    default:
      // gui, key, app, file, sys, cmd, input, output, em, span, var, hi, ...
      renderChildren(el, w);
  }
}

function isBlock(el) {
  const p = el.parent ? localName(el.parent) : '';
  return ['page', 'section', 'item', 'note', 'example', 'td', 'figure'].includes(p);
}

// ---- titles: pages of one multi-page troubleshooter share a title; their
// <subtitle> tells them apart
const titleCount = new Map();
for (const p of pages.values()) { const t = titleOf(p.page); titleCount.set(t, (titleCount.get(t) ?? 0) + 1); }
function articleTitle(p) {
  const t = titleOf(p.page);
  if (titleCount.get(t) < 2) return t;
  const sub = p.page.children.find((c) => c.type === 'el' && c.name === 'subtitle');
  return sub ? `${t}: ${squash(plainInline(sub))}` : t;
}

// ---- build the articles
const articles = [];
const skipped = [];
const kinds = { topic: 0, guide: 0 };
for (const [id, p] of pages) {
  if (id === 'index' || id === 'legal') { skipped.push(`${id} (index)`); continue; }
  currentPage = p;
  const title = articleTitle(p);
  const info = p.page.children.find((c) => c.type === 'el' && c.name === 'info');
  const descEl = info?.children.find((c) => c.type === 'el' && c.name === 'desc');
  const desc = descEl ? squash(plainInline(descEl)) : '';
  const w = new TextWriter();
  let sawTitle = false;
  for (const c of p.page.children) {
    // the page's own title becomes the article title, not part of the body
    if (!sawTitle && c.type === 'el' && c.name === 'title' && !c.attrs.type) { sawTitle = true; continue; }
    render(c, w);
  }
  // an inline icon without fallback text leaves empty brackets behind
  let body = w.result().replace(/ ?\(\s*\)/g, '');
  const kind = p.type === 'guide' ? 'guide' : 'topic';
  if (kind === 'guide' && body.length < MIN_GUIDE_BODY) { skipped.push(`${id} (navigation, ${body.length} chars)`); continue; }
  if (kind === 'topic' && body.length < MIN_TOPIC_BODY) { skipped.push(`${id} (stub, ${body.length} chars)`); continue; }
  if (desc && !body.startsWith(desc)) body = `${desc}\n\n${body}`;
  body = capLength(body, MAX_BODY);
  kinds[kind]++;
  articles.push({
    externalId: id,
    title,
    body,
    url: `https://help.gnome.org/users/gnome-help/stable/${id}.html.en`,
  });
}

articles.sort((a, b) => a.externalId.localeCompare(b.externalId));
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, JSON.stringify(articles, null, 1) + '\n');
console.error(`wrote ${articles.length} articles to ${OUT} (topic pages ${kinds.topic}, guide pages with content ${kinds.guide})`);
console.error(`skipped ${skipped.length}: ${skipped.join('; ')}`);
