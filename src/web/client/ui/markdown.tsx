import type { ComponentChildren } from 'preact';

const LIST_ITEM = /^\s*([-*•]|\d+[.)])\s+(.*)$/;
/** Links, bold, inline code and bare web addresses; nothing else is read as markup. */
const INLINE = /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)|\*\*([^*\n]+)\*\*|`([^`\n]+)`|(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)])/g;

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    if (m[1] !== undefined) out.push(<a href={m[2]} rel="noopener noreferrer" target="_blank">{m[1]}</a>);
    else if (m[3] !== undefined) out.push(<strong>{m[3]}</strong>);
    else if (m[4] !== undefined) out.push(<code>{m[4]}</code>);
    else out.push(<a href={m[5]} rel="noopener noreferrer" target="_blank">{m[5]}</a>);
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * A reply's Markdown as the agent writes it (paragraphs, numbered and bulleted steps, bold headings,
 * links), rendered as elements: never as HTML, so an article's text cannot inject markup.
 */
export function Markdown({ text }: { text: string }) {
  // Runs of lines: list items together, other lines together (a paragraph's lines keep their breaks).
  const runs: { list: boolean; lines: string[] }[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let run: { list: boolean; lines: string[] } | null = null;
    for (const line of block.split('\n').filter((l) => l.trim())) {
      const list = LIST_ITEM.test(line);
      if (!run || run.list !== list) runs.push((run = { list, lines: [] }));
      run.lines.push(line);
    }
  }
  return (
    <div class="markdown">
      {runs.map((run, i) => {
        if (run.list) {
          const items = run.lines.map((l) => LIST_ITEM.exec(l)!);
          const ordered = /\d/.test(items[0]![1]!);
          const children = items.map((m, j) => <li key={j}>{inline(m[2]!)}</li>);
          return ordered ? <ol key={i} start={Number.parseInt(items[0]![1]!, 10) || 1}>{children}</ol> : <ul key={i}>{children}</ul>;
        }
        return <p key={i}>{run.lines.flatMap((l, j) => (j ? [<br key={`b${j}`} />, ...inline(l)] : inline(l)))}</p>;
      })}
    </div>
  );
}
