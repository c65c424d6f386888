// Not used here: reaching the same modules as the card dialog keeps esbuild's shared chunks as
// they were, so the board's first load does not fetch two more tiny ones (session, colour names).
import '../session';
import '../types';
import { useEffect, useRef, useState } from 'preact/hooks';
import { patch } from '../api';
import { navigate, useLocation } from '../router';
import type { CardSummary } from '../types';
import { addDays, dayOf, firstDayOfWeek, formatDate, formatDay, fromDateTimeInput, plural, withDay } from '../ui';
import { labelClass } from './card-tile';
import { useKeyboardMovedCard } from './keyboard-moved';
import type { ViewProps } from './view-props';

type Period = 'month' | 'week';

/** The days shown: whole weeks around the month, or the week holding `anchor`. */
function daysShown(anchor: string, period: Period) {
  const first = firstDayOfWeek();
  const weekStart = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() - first + 7) % 7));
  if (period === 'week') return Array.from({ length: 7 }, (_, i) => addDays(weekStart(anchor), i));
  const monthStart = `${anchor.slice(0, 8)}01`;
  const start = weekStart(monthStart);
  const nextMonth = shiftMonth(monthStart, 1);
  const days: string[] = [];
  for (let day = start; day < nextMonth || days.length % 7 !== 0; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The first of the month `months` after the one holding `day`. */
function shiftMonth(day: string, months: number) {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 10);
}

const validDay = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : null);

/**
 * The board's cards on a month or a week by their due date, in the person's zone (`?period=week&date=`
 * keeps which, so a link shares it). A card dragged to another day (or moved with Alt+arrows) gets
 * that day at the same time of day, through the card's PATCH naming the version shown (a card changed
 * meanwhile is refused, as the card back's edits are); a click opens it. Cards without a due date are
 * counted and listed aside, and can be dragged onto a day (due at noon).
 */
export function CalendarView({ board, visible, canEdit, openCard, refused, resync }: ViewProps) {
  const { query } = useLocation();
  const period: Period = query.get('period') === 'week' ? 'week' : 'month';
  const today = dayOf(Date.now());
  const anchor = validDay(query.get('date')) ?? today;
  const go = (changes: { period?: Period; date?: string }) => {
    const next = new URLSearchParams(location.search);
    if (changes.period) changes.period === 'month' ? next.delete('period') : next.set('period', changes.period);
    if (changes.date) changes.date === today ? next.delete('date') : next.set('date', changes.date);
    const search = next.toString();
    navigate(location.pathname + (search ? `?${search}` : ''), { replace: true });
  };
  // A date set here and not yet on the board the page holds: shown at once, until the card's version moves on.
  const [moving, setMoving] = useState<Map<number, { version: number; dueAt: string }>>(new Map());
  const [dropDay, setDropDay] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const keyboardMoved = useKeyboardMovedCard('button');

  const lists = new Map(board.lists.map((l) => [l.id, l.name]));
  const labels = new Map(board.labels.map((l) => [l.id, l]));
  const dueOf = (card: CardSummary) => {
    const m = moving.get(card.id);
    return m && m.version === card.version ? m.dueAt : card.dueAt;
  };
  const cards = board.lists.flatMap((l) => (visible ? l.cards.filter(visible) : l.cards));
  const byDay = new Map<string, { card: CardSummary; dueAt: string }[]>();
  const undated: CardSummary[] = [];
  for (const card of cards) {
    const dueAt = dueOf(card);
    if (!dueAt) undated.push(card);
    else {
      const day = dayOf(dueAt);
      byDay.set(day, [...(byDay.get(day) ?? []), { card, dueAt }]);
    }
  }
  for (const entries of byDay.values()) entries.sort((a, b) => Date.parse(a.dueAt) - Date.parse(b.dueAt));
  const days = daysShown(anchor, period);
  const month = anchor.slice(0, 7);

  /** Gives the card the day (keeping its time of day), shown at once, refused with the page's message on a conflict. */
  const moveTo = async (card: CardSummary, day: string) => {
    const current = dueOf(card);
    const dueAt = current ? withDay(current, day) : fromDateTimeInput(`${day}T12:00`);
    if (!dueAt || (current && dayOf(current) === day)) return;
    setMoving((m) => new Map(m).set(card.id, { version: card.version, dueAt }));
    setSaid(`Moved “${card.title}” to ${formatDay(day, 'long')}.`);
    try {
      await patch(`/api/cards/${card.id}`, { dueAt, version: card.version });
      await resync();
    } catch (error) {
      setMoving((m) => {
        const next = new Map(m);
        next.delete(card.id);
        return next;
      });
      setSaid('');
      refused(error);
    }
  };
  const cardById = (id: number) => cards.find((c) => c.id === id);


  const keyDown = (card: CardSummary, e: KeyboardEvent) => {
    if (!canEdit || !e.altKey) return;
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
    const current = dueOf(card);
    if (!step || !current) return;
    e.preventDefault();
    const day = addDays(dayOf(current), step);
    keyboardMoved.current = card.id;
    if (!days.includes(day)) go({ date: day });
    void moveTo(card, day);
  };

  const title = period === 'month' ? formatDay(anchor, 'month') : `${formatDay(days[0]!, 'short')} – ${formatDay(days[6]!, 'short')}, ${days[6]!.slice(0, 4)}`;
  const step = (direction: 1 | -1) => go({ date: period === 'month' ? shiftMonth(anchor, direction) : addDays(anchor, 7 * direction) });
  const periodName = period === 'month' ? 'month' : 'week';

  const tile = (card: CardSummary, dueAt: string | null) => (
    <li
      key={card.id}
      class="calendar-card"
      data-card-id={card.id}
      draggable={canEdit}
      onDragStart={(e) => {
        e.dataTransfer!.setData('text/plain', `card:${card.id}`);
        e.dataTransfer!.effectAllowed = 'move';
      }}
      onDragEnd={() => setDropDay(null)}
    >
      {card.labelIds.length > 0 && (
        <span class="calendar-labels" aria-hidden="true">
          {card.labelIds.map((id) => labels.get(id)).map((l) => l && <span key={l.id} class={`${labelClass(l)} calendar-label`} title={l.name} />)}
        </span>
      )}
      <button
        type="button"
        class="calendar-card-open"
        aria-keyshortcuts={canEdit && dueAt ? 'Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown' : undefined}
        aria-describedby={canEdit && dueAt ? 'calendar-move-hint' : undefined}
        title={dueAt ? `${card.title} · ${lists.get(card.listId)} · due ${formatDate(dueAt, { time: true })}` : `${card.title} · ${lists.get(card.listId)}`}
        onClick={() => openCard(card.id)}
        onKeyDown={(e) => keyDown(card, e)}
      >
        {card.title}
      </button>
    </li>
  );

  return (
    <section class="board-view calendar" aria-labelledby="calendar-title">
      <p class="visually-hidden" role="status" aria-live="polite" data-testid="calendar-announcement">
        {said}
      </p>
      {canEdit && (
        <p id="calendar-move-hint" class="visually-hidden">
          Alt+Left and Alt+Right move the due date a day, Alt+Up and Alt+Down a week.
        </p>
      )}
      <div class="calendar-head">
        <h2 id="calendar-title">{title}</h2>
        <div class="calendar-nav">
          <button type="button" onClick={() => step(-1)} aria-label={`Previous ${periodName}`}>
            ‹
          </button>
          <button type="button" onClick={() => go({ date: today })}>
            Today
          </button>
          <button type="button" onClick={() => step(1)} aria-label={`Next ${periodName}`}>
            ›
          </button>
        </div>
        <fieldset class="segmented calendar-period">
          <legend class="visually-hidden">Show a</legend>
          {(['month', 'week'] as const).map((p) => (
            <button key={p} type="button" aria-pressed={period === p} onClick={() => go({ period: p })}>
              {p === 'month' ? 'Month' : 'Week'}
            </button>
          ))}
        </fieldset>
      </div>
      <div class={`calendar-grid ${period}`}>
        <ol class="calendar-weekdays" aria-hidden="true">
          {days.slice(0, 7).map((d) => (
            <li key={d}>{formatDay(d, 'weekday')}</li>
          ))}
        </ol>
        <ol class="calendar-days">
          {days.map((day) => {
            const entries = byDay.get(day) ?? [];
            const outside = period === 'month' && day.slice(0, 7) !== month;
            return (
              <li
                key={day}
                class={`calendar-day${outside ? ' outside' : ''}${day === today ? ' today' : ''}${dropDay === day ? ' drop' : ''}${entries.length ? '' : ' empty'}`}
                data-day={day}
                onDragOver={(e) => {
                  if (!canEdit || !e.dataTransfer?.types.includes('text/plain')) return;
                  e.preventDefault();
                  e.dataTransfer.dropEffect = 'move';
                  if (dropDay !== day) setDropDay(day);
                }}
                onDragLeave={(e) => {
                  if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setDropDay((d) => (d === day ? null : d));
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  setDropDay(null);
                  const id = Number(/^card:(\d+)$/.exec(e.dataTransfer?.getData('text/plain') ?? '')?.[1]);
                  const card = id ? cardById(id) : undefined;
                  if (card) void moveTo(card, day);
                }}
              >
                <h3 class="calendar-date">
                  <time dateTime={day}>
                    <span class="visually-hidden">{formatDay(day, 'long')}</span>
                    <span aria-hidden="true">
                      <span class="calendar-weekday">{formatDay(day, 'weekday')} </span>
                      {period === 'week' || day.endsWith('-01') ? formatDay(day, 'short') : Number(day.slice(8))}
                    </span>
                  </time>
                  {day === today && <span class="visually-hidden"> (today)</span>}
                </h3>
                {entries.length > 0 && <ul class="calendar-cards">{entries.map(({ card, dueAt }) => tile(card, dueAt))}</ul>}
              </li>
            );
          })}
        </ol>
      </div>
      <details class="calendar-undated" open={undated.length > 0 && undated.length <= 5}>
        <summary data-testid="undated-count">{undated.length === 0 ? 'Every card shown has a due date' : `${plural(undated.length, 'card')} without a due date`}</summary>
        {undated.length > 0 && (
          <>
            {canEdit && <p class="hint">Drag one onto a day, or open it to set its date.</p>}
            <ul class="calendar-cards">{undated.map((card) => tile(card, null))}</ul>
          </>
        )}
      </details>
    </section>
  );
}
