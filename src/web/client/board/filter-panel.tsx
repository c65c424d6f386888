import type { Board } from '../types';
import { Avatar, Modal } from '../ui';
import { labelClass } from './card-tile';
import { DUE_OPTIONS, type Filter } from './filter';

/**
 * The Filter panel: labels (with their colours), members ("My cards" first), due and words. Each
 * change applies at once (and goes into the URL); the count says how many cards are left.
 */
export function FilterPanel({ board, filter, me, shown, total, onChange, onClose }: { board: Board; filter: Filter; me: number; shown: number; total: number; onChange: (f: Filter) => void; onClose: () => void }) {
  const toggle = <T,>(values: T[], value: T, on: boolean) => (on ? [...values.filter((v) => v !== value), value] : values.filter((v) => v !== value));
  const others = board.members.filter((m) => m.userId !== me);
  return (
    <Modal title="Filter" onClose={onClose}>
      <div class="filter-panel">
        <label class="filter-text">
          Keyword
          <input type="search" value={filter.q} placeholder="Words in titles, descriptions, labels" onInput={(e) => onChange({ ...filter, q: e.currentTarget.value })} />
        </label>
        <fieldset>
          <legend>Members</legend>
          <label class="inline">
            <input type="checkbox" checked={filter.members.includes('me')} onChange={(e) => onChange({ ...filter, members: toggle(filter.members, 'me', e.currentTarget.checked) })} /> My cards
          </label>
          {others.map((m) => (
            <label class="inline" key={m.userId}>
              <input type="checkbox" checked={filter.members.includes(m.userId)} onChange={(e) => onChange({ ...filter, members: toggle(filter.members, m.userId, e.currentTarget.checked) })} />{' '}
              <Avatar userId={m.userId} name={m.name} url={m.avatarUrl} decorative /> {m.name}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Due date</legend>
          {DUE_OPTIONS.map(([value, name]) => (
            <label class="inline" key={value}>
              <input type="checkbox" checked={filter.due.includes(value)} onChange={(e) => onChange({ ...filter, due: toggle(filter.due, value, e.currentTarget.checked) })} /> {name}
            </label>
          ))}
        </fieldset>
        {board.labels.length > 0 && (
          <fieldset>
            <legend>Labels</legend>
            {board.labels.map((l) => (
              <label class="inline" key={l.id}>
                <input type="checkbox" checked={filter.labels.includes(l.id)} onChange={(e) => onChange({ ...filter, labels: toggle(filter.labels, l.id, e.currentTarget.checked) })} />{' '}
                <span class={labelClass(l)}>{l.name || 'No name'}</span>
              </label>
            ))}
          </fieldset>
        )}
        <p role="status" class="filter-count">
          Showing {shown} of {total} cards
        </p>
        <button type="button" onClick={() => onChange({ labels: [], members: [], due: [], q: '' })}>
          Clear filters
        </button>
      </div>
    </Modal>
  );
}
