import { useEffect, useRef, useState } from 'preact/hooks';
import { get } from '../api';
import type { Activity, ActivityPage, Board } from '../types';
import { Alert, useLoad, When } from '../ui';
import { activityChannel, activitySentence } from './activity-sentence';

/** What happened on the board, newest first; live events join at the top as they arrive. Escape closes it. */
export function ActivityPanel({ board, live, onClose, openCard }: { board: Board; live: Activity[]; onClose: () => void; openCard: (cardId: number) => void }) {
  const boardId = board.id;
  const [older, setOlder] = useState<Activity[]>([]);
  const [before, setBefore] = useState<number | null>(null);
  const ref = useRef<HTMLElement>(null);
  const first = useLoad(async () => {
    const page = await get<ActivityPage>(`/api/boards/${boardId}/activity?limit=50`);
    setBefore(page.nextBefore);
    return page.activities;
  }, [boardId]);
  useEffect(() => {
    // Escape closes the panel, unless a dialog is open (Escape is the dialog's then).
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  useEffect(() => ref.current?.focus(), []);
  const seen = new Set<number>();
  const all = [...live, ...(first.data ?? []), ...older].filter((a) => (seen.has(a.id) ? false : (seen.add(a.id), true)));
  // A renamed member reads as one person: their current name, as the board's member list has it.
  const names = new Map(board.members.map((m) => [m.userId, m.name]));
  const actorName = (a: Activity) => (a.actor.userId !== null && names.get(a.actor.userId)) || a.actor.name;
  return (
    <aside class="activity" aria-labelledby="activity-heading" ref={ref} tabIndex={-1}>
      <header>
        <h2 id="activity-heading">Activity</h2>
        <button type="button" class="icon" onClick={onClose} aria-label="Close activity">
          ×
        </button>
      </header>
      <Alert error={first.error} />
      <ol>
        {all.map((a) => {
          const channel = activityChannel(a);
          // An entry about a card links to it (archived cards too: the card window offers Restore); a deleted card has nowhere to go.
          const cardId = a.type !== 'card.deleted' && 'cardId' in a.data && typeof a.data.cardId === 'number' ? a.data.cardId : null;
          return (
            <li key={a.id} data-id={a.id} data-type={a.type}>
              <span class="sentence">
                <strong>{actorName(a)}</strong>{' '}
                {cardId !== null ? (
                  <a href={`/boards/${board.id}?card=${cardId}`} onClick={(e) => (e.preventDefault(), openCard(cardId))}>
                    {activitySentence(a, board)}
                  </a>
                ) : (
                  activitySentence(a, board)
                )}
                {channel && <span class="hint"> ({channel})</span>}
              </span>
              <br />
              <span class="hint">
                <When iso={a.createdAt} />
              </span>
            </li>
          );
        })}
      </ol>
      {before !== null && (
        <button
          type="button"
          class="small"
          onClick={async () => {
            const page = await get<ActivityPage>(`/api/boards/${boardId}/activity?limit=50&before=${before}`);
            setOlder((o) => [...o, ...page.activities]);
            setBefore(page.nextBefore);
          }}
        >
          Older
        </button>
      )}
    </aside>
  );
}
