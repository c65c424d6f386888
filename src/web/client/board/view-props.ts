import type { Board, CardSummary } from '../types';

/** What the calendar and the table are given: the board as the page holds it (live), the filter's test, and the page's own handlers. */
export interface ViewProps {
  board: Board;
  /** The filter's test, or null when no filter is set. */
  visible: ((card: CardSummary) => boolean) | null;
  canEdit: boolean;
  openCard: (cardId: number) => void;
  /** A change the server refused: the page says so and shows the board again. */
  refused: (error: unknown) => void;
  /** Fetches the board again (after a change of this tab's). */
  resync: () => Promise<void>;
}
