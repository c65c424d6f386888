import type { ComponentChildren } from 'preact';

/*
 * The one Markdown renderer of the web app: card descriptions, comments, checklist
 * items, board descriptions on the board and the Boards page, the editor's preview and the
 * support console's replies. Text becomes Preact elements, never HTML: whatever a person or an
 * article wrote, no markup of theirs reaches the page. Links open web and mail addresses only,
 * in a new tab, with rel="noopener noreferrer", and this app's own paths (`/support/1/tickets/7`,
 * as a ticket's card links to its ticket) in the same tab; `//host` and `/\host`, which a browser
 * reads as another host, stay text.
 *
 * Blocks: paragraphs (a line break stays one), # headings, - * + and 1. lists, > quotes, ```
 * code, --- rules. Inline: **bold** __bold__, *italic* _italic_, ~~struck~~, `code`,
 * [text](https://…), [text](/a/path), bare https://… addresses.
 */

const LIST_ITEM = /^\s*([-*+•]|\d+[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;

/**
 * Inline markup, first match wins: code, link, bold, struck, italic, bare address. Emphasis needs
 * a non-space just inside its marks, and `_` a word boundary outside (snake_case stays as typed).
 */
const INLINE =
  /`([^`\n]+)`|\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:|\/(?![\/\\]))[^\s)]+)\)|\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__(?!\w)|~~(?=\S)(.+?)(?<=\S)~~|\*(?=[^\s*])(.+?)(?<=[^\s*])\*|(?<!\w)_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)|(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'"])/g;

/** One line's inline Markdown as elements; `links` false shows a link's text only (inside another link, a board's tile). */
export function inlineMarkdown(text: string, links = true): ComponentChildren[] {
  const link = (href: string, children: ComponentChildren, key: number) =>
    links ? (
      href.startsWith('/') ? (
        <a key={key} href={href}>
          {children}
        </a>
      ) : (
        <a key={key} href={href} rel="noopener noreferrer" target="_blank">
          {children}
        </a>
      )
    ) : (
      <span key={key}>{children}</span>
    );
  const out: ComponentChildren[] = [];
  let at = 0;
  let key = 0;
  for (const m of text.matchAll(new RegExp(INLINE.source, 'g'))) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const [, code, linkText, href, bold, bold2, struck, italic, italic2, bare] = m;
    if (code !== undefined) out.push(<code key={key++}>{code}</code>);
    else if (linkText !== undefined) out.push(link(href!, inlineMarkdown(linkText, links), key++));
    else if (bold !== undefined || bold2 !== undefined) out.push(<strong key={key++}>{inlineMarkdown(bold ?? bold2!, links)}</strong>);
    else if (struck !== undefined) out.push(<s key={key++}>{inlineMarkdown(struck, links)}</s>);
    else if (italic !== undefined || italic2 !== undefined) out.push(<em key={key++}>{inlineMarkdown(italic ?? italic2!, links)}</em>);
    else out.push(link(bare!, bare, key++));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

type Block =
  | { kind: 'p'; lines: string[] }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'quote'; lines: string[] }
  | { kind: 'code'; lines: string[] }
  | { kind: 'rule' };

function blocks(text: string): Block[] {
  const out: Block[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let last: Block | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      const fence = FENCE.exec(line)![1]!;
      const code: string[] = [];
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence)) code.push(lines[i]!);
      out.push((last = { kind: 'code', lines: code }));
      last = null;
      continue;
    }
    if (!line.trim()) {
      last = null;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      last = null;
      continue;
    }
    if (RULE.test(line)) {
      out.push({ kind: 'rule' });
      last = null;
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      if (last?.kind === 'quote') last.lines.push(quote[1]!);
      else out.push((last = { kind: 'quote', lines: [quote[1]!] }));
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]!);
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(item[2]!);
      else out.push((last = { kind: 'list', ordered, start: Number.parseInt(item[1]!, 10) || 1, items: [item[2]!] }));
      continue;
    }
    // A line under a list item, indented, continues it; any other line continues a paragraph.
    if (last?.kind === 'list' && /^\s+\S/.test(line)) {
      last.items[last.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (last?.kind === 'p') last.lines.push(line);
    else out.push((last = { kind: 'p', lines: [line] }));
  }
  return out;
}

/** Markdown a person (or the answer agent) wrote, rendered as elements: never as HTML. */
export function Markdown({ text, class: className, links = true }: { text: string; class?: string; links?: boolean }) {
  const inline = (t: string) => inlineMarkdown(t, links);
  const withBreaks = (lines: string[]) => lines.flatMap((l, j) => (j ? [<br key={`b${j}`} />, ...inline(l)] : inline(l)));
  return (
    <div class={className ? `markdown ${className}` : 'markdown'}>
      {blocks(text).map((block, i) => {
        switch (block.kind) {
          case 'p':
            return <p key={i}>{withBreaks(block.lines)}</p>;
          case 'list': {
            const children = block.items.map((item, j) => <li key={j}>{inline(item)}</li>);
            return block.ordered ? (
              <ol key={i} start={block.start}>
                {children}
              </ol>
            ) : (
              <ul key={i}>{children}</ul>
            );
          }
          case 'heading': {
            // Inside a page whose own headings go to h3: # is h4, ## and deeper h5, h6.
            const Tag = (['h4', 'h4', 'h5', 'h6', 'h6', 'h6'] as const)[block.level - 1]!;
            return (
              <Tag key={i} class="md-heading">
                {inline(block.text)}
              </Tag>
            );
          }
          case 'quote':
            return (
              <blockquote key={i}>
                <p>{withBreaks(block.lines)}</p>
              </blockquote>
            );
          case 'code':
            return (
              <pre key={i}>
                <code>{block.lines.join('\n')}</code>
              </pre>
            );
          case 'rule':
            return <hr key={i} />;
        }
      })}
    </div>
  );
}

/** One line of Markdown (a checklist item, a title-like text): inline marks only, no block. */
export function MarkdownInline({ text }: { text: string }) {
  return <span class="markdown-inline">{inlineMarkdown(text)}</span>;
}
