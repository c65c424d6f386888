import { useRef, useState } from 'preact/hooks';
import { post, put } from '../../api';
import type { Board, CustomField, FieldType } from '../../types';
import { FIELD_TYPES } from '../../types';
import type { Change, Part } from './part';

/** The card's custom-field values, one input per field; board admins add fields. */
export function Fields({ card, board, canEdit, change }: Part & { board: Board }) {
  const isAdmin = board.role === 'admin';
  return (
    <section>
      <h3>Custom fields</h3>
      {board.customFields.length === 0 && <p class="hint">No custom fields on this board.</p>}
      {board.customFields.map((f) => (
        <FieldInput key={`${f.id}:${card.version}`} field={f} value={card.fieldValues[String(f.id)]} canEdit={canEdit} onSet={(value) => change(() => put(`/api/cards/${card.id}/fields/${f.id}`, { value }))} />
      ))}
      {isAdmin && <NewField boardId={board.id} change={change} />}
    </section>
  );
}

function FieldInput({ field, value, canEdit, onSet }: { field: CustomField; value: unknown; canEdit: boolean; onSet: (value: unknown) => Promise<boolean> }) {
  const initial = value === undefined || value === null ? '' : String(value);
  const [text, setText] = useState(initial);
  if (field.type === 'checkbox')
    return (
      <label class="inline">
        <input type="checkbox" disabled={!canEdit} checked={value === true} onChange={(e) => onSet(e.currentTarget.checked)} /> {field.name}
      </label>
    );
  if (field.type === 'list')
    return (
      <label>
        {field.name}
        <select disabled={!canEdit} value={initial} onChange={(e) => onSet(e.currentTarget.value || null)}>
          <option value="">—</option>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
    );
  const type = ({ text: 'text', number: 'number', date: 'date' } as const)[field.type];
  const save = () => {
    if (text === initial) return;
    if (text === '') return void onSet(null);
    void onSet(field.type === 'number' ? Number(text) : text);
  };
  return (
    <label>
      {field.name}
      <input
        // Preact's input typing is a union per type; the three share every attribute used here.
        type={type as 'text'}
        step={field.type === 'number' ? 'any' : undefined}
        disabled={!canEdit}
        value={field.type === 'date' ? text.slice(0, 10) : text}
        onInput={(e) => setText(e.currentTarget.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), save())}
      />
    </label>
  );
}

function NewField({ boardId, change }: { boardId: number; change: Change }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<FieldType>('text');
  const [options, setOptions] = useState('');
  const form = useRef<HTMLDetailsElement>(null);
  return (
    <details ref={form}>
      <summary>New field</summary>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const body = { name, type, ...(type === 'list' ? { options: options.split(',').map((o) => o.trim()).filter(Boolean) } : {}) };
          // The next field starts afresh: text, no choices.
          if (await change(() => post(`/api/boards/${boardId}/custom-fields`, body))) {
            setName('');
            setType('text');
            setOptions('');
            // Used, the form closes; the keyboard goes back to its summary.
            form.current!.open = false;
            form.current!.querySelector('summary')?.focus();
          }
        }}
      >
        <label>
          Name
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.currentTarget.value as FieldType)}>
            {FIELD_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        {type === 'list' && (
          <label>
            Choices <span class="hint">(comma-separated)</span>
            <input value={options} onInput={(e) => setOptions(e.currentTarget.value)} />
          </label>
        )}
        <button type="submit" class="small">
          Add field
        </button>
      </form>
    </details>
  );
}
