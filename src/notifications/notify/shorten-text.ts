/** The text cut to `max` characters with an ellipsis, never through an emoji's surrogate pair (which reads as "�"). */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const part = text.slice(0, max - 1);
  return `${/[\ud800-\udbff]$/.test(part) ? part.slice(0, -1) : part}…`;
}
