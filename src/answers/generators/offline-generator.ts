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
 * The built-in generator: works offline and never invents anything. It quotes the passage of the
 * best article that matches the message best and names the article (and its link).
 */
export class OfflineGenerator implements Generator {
  readonly name = 'offline';

  async generate(input: GenerationInput) {
    const [source] = input.sources;
    const passage = clip(source!.passages.join('\n\n').trim());
    const more = source!.url ? `\n\nMore in "${source!.title}": ${source!.url}` : `\n\n(From "${source!.title}".)`;
    return { message: `${passage}${more}`, covered: true };
  }
}
