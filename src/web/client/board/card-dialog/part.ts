import type { Card } from '../../types';

/** Runs a change to the card: the card the server answers replaces the dialog's; false when refused. */
export type Change = (action: () => Promise<unknown>) => Promise<boolean>;

/** What each part of the card dialog is handed. */
export interface Part {
  card: Card;
  canEdit: boolean;
  change: Change;
}
