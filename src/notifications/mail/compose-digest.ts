import { composeMail, freeText, PRODUCT, type ComposedMail } from '../../mail/compose.js';
import { shorten } from '../notify/shorten-text.js';

/** A notification as its mail lists it. */
export interface DigestItem {
  text: string;
  boardId: number;
  cardId: number | null;
}

/** Where a notification leads: its card on its board (the board page opens `?card=`). */
export const itemPath = (item: { boardId: number; cardId: number | null }) => `/boards/${item.boardId}${item.cardId ? `?card=${item.cardId}` : ''}`;

/** Where one click unsubscribes (a page that works without signing in; POST is RFC 8058's one-click). */
export const unsubscribePath = (token: string) => `/unsubscribe/${token}`;

/**
 * One person's batch of notifications as one mail: each with its link, then where to change what
 * is mailed and a one-click unsubscribe link (also in List-Unsubscribe, with List-Unsubscribe-Post
 * for mail clients' own button, RFC 8058).
 */
export function composeDigest({ name, items, origin, token }: { name: string; items: DigestItem[]; origin: string; token: string }): ComposedMail & {
  subject: string;
  headers: Record<string, string>;
} {
  const unsubscribeUrl = `${origin}${unsubscribePath(token)}`;
  const subject = items.length === 1 ? shorten(freeText(items[0]!.text), 150) : `${items.length} new notifications on ${PRODUCT}`;
  const mail = composeMail({
    greeting: `Hello ${freeText(name)},`,
    paragraphs: [items.length === 1 ? 'This happened on your boards:' : `${items.length} things happened on your boards:`],
    items: items.map((item) => ({ text: freeText(item.text), url: `${origin}${itemPath(item)}` })),
    action: { label: 'See all your notifications', url: `${origin}/notifications` },
    footer: [
      { text: 'Choose which notifications are mailed to you on your account page:', url: `${origin}/settings/account` },
      { text: 'Stop all notification mail with one click:', url: unsubscribeUrl },
    ],
  });
  return { ...mail, subject, headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
