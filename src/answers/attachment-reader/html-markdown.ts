/** The few DOM members the Markdown writer reads (linkedom's nodes have them). */
export interface MarkdownNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<MarkdownNode>;
  getAttribute?(name: string): string | null;
}

export const collapse = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Blank lines at most one in a row, no trailing spaces. */
export function tidy(text: string) {
  return text
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'HEAD', 'NAV', 'FORM', 'BUTTON']);
const BLOCK_TAGS = new Set(['P', 'UL', 'OL', 'PRE', 'BLOCKQUOTE', 'TABLE', 'DIV', 'SECTION', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR']);
const CONTAINERS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'FIGURE', 'DL', 'DD', 'DT', 'BODY', 'TABLE', 'THEAD', 'TBODY', 'TFOOT']);

/**
 * How a node is written: `block` (a node among blocks), `inline` (inside a paragraph or heading),
 * `list` (a list's items, indented `depth` levels), `item` (one list item), `para` (a <p> inside an item).
 */
type Role = 'block' | 'inline' | 'list' | 'item' | 'para';
interface Visit {
  node: MarkdownNode;
  role: Role;
  depth: number;
  /** An item's "- " or "1.". */
  marker?: string;
}
/** What a node becomes: its text at once, or its children's texts put together by `close`. */
type Step = string | { children: Visit[]; close(parts: string[]): string };

const tagOf = (node: MarkdownNode) => node.nodeName.toUpperCase();
const isElement = (node: MarkdownNode, ...tags: string[]) => node.nodeType === 1 && tags.includes(tagOf(node));
const kids = (node: MarkdownNode) => Array.from(node.childNodes);
const each = (node: MarkdownNode, role: Role, depth: number): Visit[] => kids(node).map((child) => ({ node: child, role, depth }));
const joined = (parts: string[]) => parts.join('');

/**
 * Block content → Markdown: headings, paragraphs, lists (nested), links, emphasis, code, quotes,
 * tables. Walks the tree with a stack of its own rather than by recursion: however deep a page
 * nests, it costs heap (bounded by the reader's limit), never the call stack.
 */
export function toMarkdown(root: MarkdownNode): string {
  const first = step({ node: root, role: 'block', depth: 0 });
  if (typeof first === 'string') return first;
  const stack = [{ ...first, parts: [] as string[], next: 0 }];
  for (;;) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.children.length) {
      const s = step(top.children[top.next++]!);
      if (typeof s === 'string') top.parts.push(s);
      else stack.push({ ...s, parts: [], next: 0 });
      continue;
    }
    stack.pop();
    const text = top.close(top.parts);
    if (!stack.length) return text;
    stack[stack.length - 1]!.parts.push(text);
  }
}

function step(visit: Visit): Step {
  const { node, role, depth } = visit;
  if (node.nodeType === 3) return role === 'list' ? '' : (node.textContent ?? '').replace(/\s+/g, ' ');
  if (node.nodeType !== 1) return '';
  const tag = tagOf(node);
  if (SKIPPED.has(tag)) return '';
  switch (role) {
    case 'block':
      return blockStep(node, tag, depth);
    case 'inline':
      return inlineStep(node, tag);
    case 'list':
      return listStep(node, depth, tag === 'OL');
    case 'item':
      return itemStep(node, depth, visit.marker ?? '-');
    case 'para':
      return { children: each(node, 'inline', 0), close: (parts) => ` ${joined(parts)}` };
  }
}

function blockStep(node: MarkdownNode, tag: string, depth: number): Step {
  const heading = /^H([1-6])$/.exec(tag);
  if (heading) return { children: each(node, 'inline', 0), close: (parts) => `\n\n${'#'.repeat(Number(heading[1]))} ${collapse(joined(parts))}\n\n` };
  switch (tag) {
    case 'P':
      return { children: each(node, 'inline', 0), close: (parts) => `\n\n${joined(parts).trim()}\n\n` };
    case 'BR':
      return '\n';
    case 'HR':
      return '\n\n---\n\n';
    case 'UL':
    case 'OL':
      return { children: [{ node, role: 'list', depth }], close: (parts) => `\n\n${joined(parts)}\n\n` };
    case 'PRE':
      return `\n\n\`\`\`\n${(node.textContent ?? '').replace(/\n$/, '')}\n\`\`\`\n\n`;
    case 'BLOCKQUOTE':
      return {
        children: each(node, 'block', depth),
        close: (parts) =>
          `\n\n${tidy(joined(parts))
            .split('\n')
            .map((line) => `> ${line}`.trimEnd())
            .join('\n')}\n\n`,
      };
    case 'TR':
      return {
        children: kids(node)
          .filter((c) => c.nodeType === 1)
          .map((c) => ({ node: c, role: 'inline', depth: 0 })),
        close: (parts) => `\n| ${parts.map(collapse).join(' | ')} |`,
      };
    default:
      if (CONTAINERS.has(tag)) return { children: each(node, 'block', depth), close: (parts) => `\n${joined(parts)}\n` };
      return inlineStep(node, tag);
  }
}

/** A list's items, "- " or "1. ", one a line. */
function listStep(node: MarkdownNode, depth: number, ordered: boolean): Step {
  const items = kids(node).filter((c) => isElement(c, 'LI'));
  return { children: items.map((item, n) => ({ node: item, role: 'item', depth, marker: ordered ? `${n + 1}.` : '-' })), close: (parts) => parts.join('\n') };
}

/** One item: its own words on the marker's line, its nested lists indented under it. */
function itemStep(item: MarkdownNode, depth: number, marker: string): Step {
  const children = kids(item).map((child): Visit => {
    if (isElement(child, 'UL', 'OL')) return { node: child, role: 'list', depth: depth + 1 };
    if (isElement(child, 'P')) return { node: child, role: 'para', depth: 0 };
    return { node: child, role: 'block', depth: depth + 1 };
  });
  return {
    children,
    close: (parts) => {
      let own = '';
      let nested = '';
      parts.forEach((part, i) => {
        if (children[i]!.role === 'list') nested += `\n${part}`;
        else own += part;
      });
      return `${'  '.repeat(depth)}${marker} ${collapse(own)}${nested}`;
    },
  };
}

/** A node inside a block as inline Markdown. */
function inlineStep(node: MarkdownNode, tag: string): Step {
  const inner = (wrap: (inner: string) => string): Step => ({ children: each(node, 'inline', 0), close: (parts) => wrap(joined(parts)) });
  const marked = (mark: string) => inner((text) => (collapse(text) ? `${mark}${collapse(text)}${mark}` : text));
  switch (tag) {
    case 'A': {
      const href = node.getAttribute?.('href')?.trim() ?? '';
      return inner((text) => {
        const words = collapse(text);
        // Only links a reader can follow; a script link or an anchor keeps its words.
        return words && /^(https?:|mailto:|\/)/i.test(href) ? `[${words}](${href.replace(/\s/g, '%20').replace(/\)/g, '%29')})` : text;
      });
    }
    case 'STRONG':
    case 'B':
      return marked('**');
    case 'EM':
    case 'I':
      return marked('*');
    case 'CODE':
      return marked('`');
    case 'IMG':
      return node.getAttribute?.('alt') ?? '';
    case 'BR':
      return '\n';
    default:
      return BLOCK_TAGS.has(tag) ? blockStep(node, tag, 0) : inner((text) => text);
  }
}
