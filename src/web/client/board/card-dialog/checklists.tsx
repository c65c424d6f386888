import { useState } from 'preact/hooks';
import { del, patch, post } from '../../api';
import type { Checklist } from '../../types';
import { MarkdownInline } from '../../ui';
import type { Change, Part } from './part';

/** The card's checklists with their items, and a form to add one. */
export function Checklists({ card, canEdit, change }: Part) {
  const [name, setName] = useState('');
  return (
    <section>
      <h3>Checklists</h3>
      {card.checklists.map((c) => (
        <ChecklistView key={c.id} checklist={c} canEdit={canEdit} change={change} />
      ))}
      {canEdit && (
        <form
          class="row"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await change(() => post(`/api/cards/${card.id}/checklists`, { name }))) setName('');
          }}
        >
          <label>
            <span class="visually-hidden">New checklist name</span>
            <input value={name} required placeholder="New checklist" onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="submit" class="small">
            Add checklist
          </button>
        </form>
      )}
    </section>
  );
}

function ChecklistView({ checklist, canEdit, change }: { checklist: Checklist; canEdit: boolean; change: Change }) {
  const [item, setItem] = useState('');
  const done = checklist.items.filter((i) => i.checked).length;
  return (
    <div class="checklist">
      <h4>
        {checklist.name}{' '}
        <span class="hint">
          {done}/{checklist.items.length}
        </span>
        {canEdit && (
          <button type="button" class="link small" onClick={() => change(() => del(`/api/checklists/${checklist.id}`))} aria-label={`Delete checklist ${checklist.name}`}>
            Delete
          </button>
        )}
      </h4>
      <progress max={Math.max(1, checklist.items.length)} value={done} aria-label={`${done} of ${checklist.items.length} done`} />
      <ul class="checks">
        {checklist.items.map((i) => (
          <li key={i.id}>
            <label class="inline">
              <input type="checkbox" disabled={!canEdit} checked={i.checked} onChange={(e) => change(() => patch(`/api/items/${i.id}`, { checked: e.currentTarget.checked }))} />{' '}
              <MarkdownInline text={i.name} />
            </label>
            {canEdit && (
              <button type="button" class="link small" onClick={() => change(() => del(`/api/items/${i.id}`))} aria-label={`Delete item ${i.name}`}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <form
          class="row"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await change(() => post(`/api/checklists/${checklist.id}/items`, { name: item }))) setItem('');
          }}
        >
          <label>
            <span class="visually-hidden">New item in {checklist.name}</span>
            <input value={item} required placeholder="Add an item" onInput={(e) => setItem(e.currentTarget.value)} />
          </label>
          <button type="submit" class="small">
            Add
          </button>
        </form>
      )}
    </div>
  );
}
