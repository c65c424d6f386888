import { setQuery } from '../router';
import type { CardSummary, Label, Member } from '../types';
import { Calendar, MessageSquare, Paperclip, SquareCheckBig } from 'lucide';
import { Avatar, formatDate, formatRelative, Icon, plural } from '../ui';

/** A label's chip classes: its colour and shade (styles.css `.label.blue.shade-dark`). */
export const labelClass = (l: Pick<Label, 'color' | 'shade'>) => `label ${l.color ?? 'none'}${l.color && l.shade ? ` shade-${l.shade}` : ''}`;

/** A card in its list: its cover picture, labels, title (opens the card; Alt+arrows move it), due date and counts, assignees. */
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
      {card.coverAttachmentId !== null && (
        // Decorative: the title says what the card is; the picture is in its dialog, named.
        <img class="card-cover" src={`/api/attachments/${card.coverAttachmentId}/download`} alt="" loading="lazy" draggable={false} />
      )}
      {labels.length > 0 && (
        <ul class="card-labels" aria-label="Labels">
          {labels.map((l) => (
            <li key={l.id} class={labelClass(l)}>
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
        {card.dueAt && (
          <span class={overdue ? 'badge warn' : 'badge'}>
            <Icon icon={Calendar} size={12} />{' '}
            <time dateTime={card.dueAt} title={formatDate(card.dueAt, { time: true })}>
              Due {formatRelative(card.dueAt, { time: false })}
            </time>
          </span>
        )}
        {/* Lucide icons, not emoji: not every system has a colour-emoji font. */}
        {card.checklistItems.total > 0 && (
          <span class="badge" aria-label={`${card.checklistItems.checked} of ${plural(card.checklistItems.total, 'item')} done`}>
            <Icon icon={SquareCheckBig} size={12} /> {card.checklistItems.checked}/{card.checklistItems.total}
          </span>
        )}
        {card.commentCount > 0 && (
          <span class="badge" aria-label={plural(card.commentCount, 'comment')}>
            <Icon icon={MessageSquare} size={12} /> {card.commentCount}
          </span>
        )}
        {card.attachmentCount > 0 && (
          <span class="badge" aria-label={plural(card.attachmentCount, 'attachment')}>
            <Icon icon={Paperclip} size={12} /> {card.attachmentCount}
          </span>
        )}
        {members.map((m) => (
          <Avatar key={m.userId} userId={m.userId} name={m.name} url={m.avatarUrl} />
        ))}
      </div>
    </li>
  );
}
