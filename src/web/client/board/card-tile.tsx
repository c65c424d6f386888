import { setQuery } from '../router';
import type { CardSummary, Label, Member } from '../types';
import { avatarColour, formatDate, initials, plural } from '../ui';

/** A card in its list: labels, title (opens the card; Alt+arrows move it), due date and counts, assignees. */
export function CardTile({
  card,
  labels,
  members,
  canEdit,
  dragged,
  onDragStart,
  onDragEnd,
  keyboardMove,
}: {
  card: CardSummary;
  labels: Label[];
  members: Member[];
  canEdit: boolean;
  dragged: boolean;
  onDragStart: () => void;
  onDragEnd: () => void;
  keyboardMove: (card: CardSummary, key: string) => boolean;
}) {
  const overdue = card.dueAt !== null && Date.parse(card.dueAt) < Date.now();
  return (
    <li
      class={dragged ? 'card dragged' : 'card'}
      data-card-id={card.id}
      draggable={canEdit}
      onDragStart={(e) => {
        e.dataTransfer!.setData('text/plain', `card:${card.id}`);
        e.dataTransfer!.effectAllowed = 'move';
        onDragStart();
      }}
      onDragEnd={onDragEnd}
    >
      {labels.length > 0 && (
        <ul class="card-labels" aria-label="Labels">
          {labels.map((l) => (
            <li key={l.id} class={`label ${l.color ?? 'none'}`}>
              {l.name}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        class="card-open"
        aria-keyshortcuts={canEdit ? 'Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight' : undefined}
        aria-describedby={canEdit ? 'move-hint' : undefined}
        onClick={() => setQuery('card', String(card.id))}
        onKeyDown={(e) => {
          if (canEdit && e.altKey && keyboardMove(card, e.key)) e.preventDefault();
        }}
      >
        {card.title}
      </button>
      <div class="card-badges">
        {card.dueAt && <span class={overdue ? 'badge warn' : 'badge'}>Due {formatDate(card.dueAt)}</span>}
        {card.checklistItems.total > 0 && (
          <span class="badge" aria-label={`${card.checklistItems.checked} of ${plural(card.checklistItems.total, 'item')} done`}>
            ☑ {card.checklistItems.checked}/{card.checklistItems.total}
          </span>
        )}
        {card.commentCount > 0 && <span class="badge" aria-label={plural(card.commentCount, 'comment')}>
            {/* Drawn, not an emoji: not every system has an emoji font. */}
            <svg class="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <path d="M2 3h12v8H7l-3 3v-3H2z" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" />
            </svg>{' '}
            {card.commentCount}
          </span>}
        {card.attachmentCount > 0 && (
          <span class="badge" aria-label={plural(card.attachmentCount, 'attachment')}>
            {/* A paper clip, drawn like the comment badge (an emoji is an empty box without a colour-emoji font). */}
            <svg class="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
              <path d="M10.5 4.5v6a2.5 2.5 0 0 1-5 0V3.75a1.75 1.75 0 0 1 3.5 0V10a1 1 0 0 1-2 0V5" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" />
            </svg>{' '}
            {card.attachmentCount}
          </span>
        )}
        {members.map((m) => (
          <span key={m.userId} class={`avatar ${avatarColour(m.userId)}`} title={m.name}>
            {initials(m.name)}
          </span>
        ))}
      </div>
    </li>
  );
}
