import { useEffect, useRef } from 'preact/hooks';
import { Modal } from '../ui';
import type { Opened } from './card-dialog/part';

/** Trello's keys, as this board has them; the `?` dialog lists these. */
const SHORTCUTS: [string, string][] = [
  ['e', "Edit the card's title"],
  ['c', 'Archive the card'],
  ['d', 'Change the due date'],
  ['l', 'Change the labels'],
  ['m', 'Change the members'],
  ['/', 'Search the cards'],
  ['f', 'Filter the cards (by label, member, due date, words)'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close a panel or the card; cancel an edit'],
  ['Ctrl + Enter', 'Save an edit'],
];

/** What a shortcut does to a card: open a part of it, or archive it. */
export type CardKey = Opened | 'archive';
const CARD_KEYS: Record<string, CardKey> = { e: 'title', c: 'archive', d: 'due', l: 'labels', m: 'members' };

/** A key press meant for a field (or with a modifier) is never a shortcut. */
function typing(e: KeyboardEvent) {
  const t = e.target as HTMLElement | null;
  return e.ctrlKey || e.metaKey || e.altKey || (!!t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)));
}

/**
 * The board's keyboard shortcuts. The card keys act on the open card, else on the card with the
 * focus, else on the one under the pointer (as Trello's do). Nothing fires while typing in a
 * field or while another dialog (members, a confirmation…) is open over the board or the card.
 */
export function useShortcuts(on: { openCardId: number | null; card: (cardId: number, what: CardKey) => void; search: () => void; filter: () => void; help: () => void }) {
  const latest = useRef(on);
  latest.current = on;
  useEffect(() => {
    const press = (e: KeyboardEvent) => {
      const { openCardId, card, search, filter, help } = latest.current;
      if (e.defaultPrevented || typing(e)) return;
      if (document.querySelectorAll('dialog[open]').length > (openCardId === null ? 0 : 1)) return;
      if (e.key === '?') {
        e.preventDefault();
        return help();
      }
      const what = CARD_KEYS[e.key];
      if (what) {
        const tile = document.activeElement?.closest('[data-card-id]') ?? document.querySelector('[data-card-id]:hover');
        const id = openCardId ?? (tile ? Number(tile.getAttribute('data-card-id')) : null);
        if (id === null) return;
        e.preventDefault();
        return card(id, what);
      }
      if (openCardId !== null) return;
      if (e.key === '/' || e.key === 'f') {
        e.preventDefault();
        if (e.key === '/') search();
        else filter();
      }
    };
    document.addEventListener('keydown', press);
    return () => document.removeEventListener('keydown', press);
  }, []);
}

/** The `?` dialog: every shortcut and what it does. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <p class="hint">On the board, the card keys act on the open card, or the card you point at or have focused. They never fire while you type in a field.</p>
      <dl class="shortcuts">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
