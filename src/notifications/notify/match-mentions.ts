/** A board member as mentions are matched against: their name and address. */
export interface Mentionable {
  userId: number;
  name: string;
  email: string;
}

/** `@word` not preceded by a letter, digit or `@` (an e-mail address is not a mention). */
const MENTION = /(?<![\p{L}\p{N}@._-])@([\p{L}\p{N}][\p{L}\p{N}._-]*)/gu;

const handle = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The members a text @mentions. `@ada`, `@AdaLovelace`, `@ada.lovelace` and `@ada-12` (the part of
 * the address before `@`) all mention Ada Lovelace <ada-12@…>: a mention is compared, ignoring case
 * and punctuation, with the member's whole name, its first word, and the address's local part.
 * A first name two members share mentions both.
 */
export function matchMentions(text: string, members: Mentionable[]): number[] {
  const said = new Set<string>();
  for (const match of text.matchAll(MENTION)) said.add(handle(match[1]!.replace(/[._-]+$/, '')));
  said.delete('');
  if (!said.size) return [];
  return members
    .filter((m) => {
      const handles = [handle(m.name), handle(m.name.trim().split(/\s+/)[0] ?? ''), handle(m.email.split('@')[0] ?? '')];
      return handles.some((h) => h && said.has(h));
    })
    .map((m) => m.userId);
}
