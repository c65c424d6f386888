import type { Card } from '../../types';

/** Runs a change to the card: the card the server answers replaces the dialog's; false when refused. */
export type Change = (action: () => Promise<unknown>) => Promise<boolean>;

/**
 * What each section of the card dialog is handed. A new section (a ticket's "Reply to customer",
 * say) is a component taking a Part, put in the dialog's list of sections (card-dialog.tsx).
 */
export interface Part {
  card: Card;
  canEdit: boolean;
  change: Change;
}

/** What a keyboard shortcut opens on the card back (shortcuts.tsx). */
export type Opened = 'title' | 'due' | 'labels' | 'members';

/** A compact section that a shortcut can open: whether it is open, and how to open or close it. */
export interface Openable {
  open: boolean;
  onOpen: (open: boolean) => void;
}
