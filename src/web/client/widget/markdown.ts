// Markdown as DOM elements, never as HTML: every piece of text is a text node, so a reply holding
// `<script>` or `<img onerror>` shows those characters and runs nothing. Small on purpose (the
// widget's size is a customer's page's cost): paragraphs, headings, lists, bold, italics, code, links.

type Child = Node | string;

function el(tag: string, children: Child[] = [], attrs: Record<string, string> = {}): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** Only http(s) links become links; anything else (javascript:, data:) stays text. */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export function link(text: string, href: string): HTMLElement {
  return el('a', [text], { href, target: '_blank', rel: 'noopener noreferrer' });
}

const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|(?<![\w])_(.+?)_(?![\w])|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/;

/** Inline Markdown of one line or paragraph, as nodes. */
export function inline(text: string): Child[] {
  const out: Child[] = [];
  let rest = text;
  for (let m = INLINE.exec(rest); m; m = INLINE.exec(rest)) {
    if (m.index > 0) out.push(rest.slice(0, m.index));
    if (m[1] !== undefined) out.push(el('strong', inline(m[1])));
    else if (m[2] !== undefined || m[3] !== undefined) out.push(el('em', inline((m[2] ?? m[3])!)));
    else if (m[4] !== undefined) out.push(el('code', [m[4]]));
    else if (m[5] !== undefined) {
      const href = safeHref(m[6]!);
      out.push(href ? link(m[5], href) : m[0]);
    } else {
      const href = safeHref(m[7]!);
      out.push(href ? link(m[7]!, href) : m[7]!);
    }
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) out.push(rest);
  return out;
}

/** A Markdown text as block elements. */
export function markdown(text: string): HTMLElement {
  const root = el('div', [], { class: 'md' });
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: HTMLElement | null = null;
  const flush = () => {
    if (paragraph.length) root.append(el('p', inline(paragraph.join(' '))));
    paragraph = [];
  };
  for (const line of lines) {
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (bullet || numbered) {
      flush();
      const tag = bullet ? 'UL' : 'OL';
      if (!list || list.tagName !== tag) root.append((list = el(tag.toLowerCase())));
      list.append(el('li', inline((bullet ?? numbered)![1]!)));
      continue;
    }
    list = null;
    if (heading) {
      flush();
      root.append(el('p', [el('strong', inline(heading[1]!))]));
    } else if (!line.trim()) flush();
    else paragraph.push(line.trim());
  }
  flush();
  return root;
}
