import type { GenerationInput, Generator } from './generator.js';

const MAX_CHARS = 900;

/** At most MAX_CHARS, cut at a sentence end when there is one in the second half. */
function clip(text: string): string {
  if (text.length <= MAX_CHARS) return text;
  const cut = text.slice(0, MAX_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  return end > MAX_CHARS / 2 ? cut.slice(0, end + 1) : `${cut.trimEnd()}…`;
}

/**
 * The built-in generator: works offline and never invents anything. It replies with the part of the
 * best article that answers the message (a paragraph, a few sentences or the numbered steps, in
 * Markdown as the article has it) under its section's heading, and points to the whole article.
 */
export class OfflineGenerator implements Generator {
  readonly name = 'offline';

  async generate(input: GenerationInput) {
    const [source] = input.sources;
    const { heading, text } = source!.excerpt;
    const body = clip(text.trim());
    const more = source!.url ? `Read the whole article, "${source!.title}": ${source!.url}` : `(From "${source!.title}".)`;
    return { message: [heading ? `**${heading}**` : '', body, more].filter(Boolean).join('\n\n'), covered: true };
  }
}
