import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, del, get, patch, post, put } from '../api';
import { useSession } from '../session';
import type { Board, Card, Checklist, CustomField, FieldType, Label } from '../types';
import { FIELD_TYPES, LABEL_COLORS } from '../types';
import { Alert, Confirm, formatDate, formatSize, Modal, Notice } from '../ui';

interface Props {
  cardId: number;
  board: Board;
  /** Bumped when a live event concerns this card: the dialog fetches it again. */
  version: number;
  onClose: () => void;
  onChanged: () => Promise<void>;
  moveCard: (cardId: number, listId: number, index: number) => Promise<void>;
}

export function CardDialog({ cardId, board, version, onClose, onChanged, moveCard }: Props) {
  const [card, setCard] = useState<Card | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [gone, setGone] = useState(false);
  const canEdit = board.role !== 'observer';

  const reload = async () => {
    try {
      setCard(await get<Card>(`/api/cards/${cardId}`));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) setGone(true);
      else setError(e);
    }
  };
  useEffect(() => void reload(), [cardId, version]);

  /** Every change goes through here: the card the server answers replaces ours; a refusal is shown and both views re-read. */
  const change = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      const result = await action();
      if (result && typeof result === 'object' && 'checklists' in result) setCard(result as Card);
      else await reload();
      await onChanged();
      return true;
    } catch (e) {
      setError(e instanceof ApiError && e.status === 409 ? new ApiError(409, `${e.message}. The card below is the latest version.`) : e);
      await reload();
      await onChanged();
      return false;
    }
  };

  if (gone)
    return (
      <Modal title="Card" onClose={onClose}>
        <Notice>This card no longer exists.</Notice>
      </Modal>
    );
  if (!card)
    return (
      <Modal title="Card" onClose={onClose}>
        <Alert error={error} />
        {!error && <p>Loading…</p>}
      </Modal>
    );

  const list = board.lists.find((l) => l.id === card.listId);
  return (
    <Modal title={card.title} onClose={onClose} wide>
      <p class="hint">
        In list <strong>{list?.name ?? '(archived list)'}</strong>
        {card.archived && <span class="badge warn">Archived</span>}
      </p>
      <Alert error={error} onDismiss={() => setError(null)} />
      <div class="card-detail">
        <div class="card-main">
          <TitleAndDescription card={card} canEdit={canEdit} change={change} />
          <Checklists card={card} canEdit={canEdit} change={change} />
          <Attachments card={card} canEdit={canEdit} change={change} />
          <Comments card={card} change={change} />
        </div>
        <aside class="card-side">
          <DueDate card={card} canEdit={canEdit} change={change} />
          <Labels card={card} board={board} canEdit={canEdit} change={change} />
          <Assignees card={card} board={board} canEdit={canEdit} change={change} />
          <Fields card={card} board={board} canEdit={canEdit} change={change} />
          {canEdit && <MoveCard card={card} board={board} moveCard={async (l, i) => change(() => moveCard(card.id, l, i))} />}
          {canEdit && <CardActions card={card} board={board} change={change} onDeleted={onClose} />}
        </aside>
      </div>
    </Modal>
  );
}

type Change = (action: () => Promise<unknown>) => Promise<boolean>;
interface Part {
  card: Card;
  canEdit: boolean;
  change: Change;
}

function TitleAndDescription({ card, canEdit, change }: Part) {
  // `base` is the card the inputs started from. A live change replaces it only while the person
  // has not typed (their edit is never dropped silently); their save names the version they saw,
  // so a card that moved on meanwhile answers 409, and the dialog then shows the latest card.
  const [base, setBase] = useState(card);
  const [title, setTitle] = useState(card.title);
  const [description, setDescription] = useState(card.description);
  const [refused, setRefused] = useState(false);
  const dirty = title !== base.title || description !== base.description;
  useEffect(() => {
    const saved = title === card.title && description === card.description;
    if (dirty && !saved && !refused) return;
    setBase(card);
    setTitle(card.title);
    setDescription(card.description);
    setRefused(false);
  }, [card.version, refused]);
  if (!canEdit)
    return (
      <section>
        <h3>Description</h3>
        <p class="description">{card.description || <span class="hint">No description.</span>}</p>
      </section>
    );
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        const ok = await change(() =>
          patch(`/api/cards/${card.id}`, {
            ...(title !== base.title ? { title } : {}),
            ...(description !== base.description ? { description } : {}),
            version: base.version,
          }),
        );
        if (!ok) setRefused(true);
      }}
    >
      <label>
        Title
        <input value={title} required onInput={(e) => setTitle(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <textarea rows={5} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary small" disabled={!dirty}>
        Save
      </button>
    </form>
  );
}

function DueDate({ card, canEdit, change }: Part) {
  const local = card.dueAt ? toLocalInput(card.dueAt) : '';
  const [value, setValue] = useState(local);
  useEffect(() => setValue(local), [card.dueAt]);
  return (
    <section>
      <h3>Due date</h3>
      {!canEdit ? (
        <p>{card.dueAt ? formatDate(card.dueAt, { time: true }) : 'None'}</p>
      ) : (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            void change(() => patch(`/api/cards/${card.id}`, { dueAt: value ? new Date(value).toISOString() : null }));
          }}
        >
          <label>
            <span class="visually-hidden">Due date</span>
            <input type="datetime-local" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
          </label>
          <button type="submit" class="small">
            Set
          </button>
          {card.dueAt && (
            <button type="button" class="small" onClick={() => change(() => patch(`/api/cards/${card.id}`, { dueAt: null }))}>
              Clear
            </button>
          )}
        </form>
      )}
    </section>
  );
}

function toLocalInput(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function Labels({ card, board, canEdit, change }: Part & { board: Board }) {
  const [name, setName] = useState('');
  const [color, setColor] = useState<string>('green');
  return (
    <section>
      <h3>Labels</h3>
      {board.labels.length === 0 && <p class="hint">No labels on this board.</p>}
      <ul class="checks">
        {board.labels.map((l) => (
          <li key={l.id}>
            <label class="inline">
              <input
                type="checkbox"
                disabled={!canEdit}
                checked={card.labelIds.includes(l.id)}
                onChange={(e) =>
                  change(() => (e.currentTarget.checked ? put(`/api/cards/${card.id}/labels/${l.id}`) : del(`/api/cards/${card.id}/labels/${l.id}`)))
                }
              />{' '}
              <span class={`label ${l.color ?? 'none'}`}>{l.name}</span>
            </label>
          </li>
        ))}
      </ul>
      {canEdit && (
        <details>
          <summary>New label</summary>
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              // Made here, it goes on this card at once (as Trello does).
              const made = await change(async () => {
                const label = await post<Label>(`/api/boards/${board.id}/labels`, { name, color });
                return put(`/api/cards/${card.id}/labels/${label.id}`);
              });
              if (made) setName('');
            }}
          >
            <label>
              Name
              <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
            </label>
            <label>
              Colour
              <select value={color} onChange={(e) => setColor(e.currentTarget.value)}>
                {LABEL_COLORS.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" class="small">
              Create label
            </button>
          </form>
        </details>
      )}
    </section>
  );
}

function Assignees({ card, board, canEdit, change }: Part & { board: Board }) {
  return (
    <section>
      <h3>Assignees</h3>
      <ul class="checks">
        {board.members.map((m) => (
          <li key={m.userId}>
            <label class="inline">
              <input
                type="checkbox"
                disabled={!canEdit}
                checked={card.memberIds.includes(m.userId)}
                onChange={(e) =>
                  change(() =>
                    e.currentTarget.checked ? put(`/api/cards/${card.id}/members/${m.userId}`) : del(`/api/cards/${card.id}/members/${m.userId}`),
                  )
                }
              />{' '}
              {m.name}
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Fields({ card, board, canEdit, change }: Part & { board: Board }) {
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
  return (
    <details>
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

function Checklists({ card, canEdit, change }: Part) {
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
              {i.name}
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

function Attachments({ card, canEdit, change }: Part) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <section>
      <h3>Attachments</h3>
      {card.attachments.length === 0 && <p class="hint">None.</p>}
      <ul class="attachments">
        {card.attachments.map((a) => (
          <li key={a.id}>
            <a href={`/api/attachments/${a.id}/download`} download={a.filename}>
              {a.filename}
            </a>{' '}
            <span class="hint">
              {formatSize(a.size)} · {formatDate(a.createdAt)}
            </span>
            {canEdit && (
              <button type="button" class="link small" onClick={() => change(() => del(`/api/attachments/${a.id}`))} aria-label={`Delete attachment ${a.filename}`}>
                Delete
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
            if (!file) return;
            const form = new FormData();
            form.append('file', file, file.name);
            const input = e.currentTarget.querySelector('input[type=file]') as HTMLInputElement | null;
            if (await change(() => api('POST', `/api/cards/${card.id}/attachments`, form))) {
              setFile(null);
              if (input) input.value = '';
            }
          }}
        >
          <label>
            Upload a file
            <input type="file" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </label>
          <button type="submit" class="small" disabled={!file}>
            Upload
          </button>
        </form>
      )}
    </section>
  );
}

function Comments({ card, change }: { card: Card; change: Change }) {
  const { user } = useSession();
  const [text, setText] = useState('');
  return (
    <section>
      <h3>Comments</h3>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (await change(() => post(`/api/cards/${card.id}/comments`, { text }))) setText('');
        }}
      >
        <label>
          <span class="visually-hidden">Write a comment</span>
          <textarea rows={2} value={text} required placeholder="Write a comment…" onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit" class="small">
          Comment
        </button>
      </form>
      <ol class="comments">
        {card.comments.map((c) => (
          <li key={c.id}>
            <p class="hint">
              <strong>{c.author.name}</strong> · {formatDate(c.createdAt, { time: true })}
              {c.author.userId === user.id && (
                <button type="button" class="link small" onClick={() => change(() => del(`/api/comments/${c.id}`))} aria-label="Delete this comment">
                  Delete
                </button>
              )}
            </p>
            <p class="comment-text">{c.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function MoveCard({ card, board, moveCard }: { card: Card; board: Board; moveCard: (listId: number, index: number) => Promise<boolean> }) {
  const [listId, setListId] = useState(card.listId);
  const target = board.lists.find((l) => l.id === listId);
  const count = target ? target.cards.filter((c) => c.id !== card.id).length : 0;
  const [position, setPosition] = useState(card.position);
  useEffect(() => {
    setListId(card.listId);
    setPosition(card.position);
  }, [card.version]);
  return (
    <section>
      <h3>Move</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void moveCard(listId, Math.min(position, count));
        }}
      >
        <label>
          List
          <select value={String(listId)} onChange={(e) => setListId(Number(e.currentTarget.value))}>
            {board.lists.map((l) => (
              <option key={l.id} value={String(l.id)}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Position
          <select value={String(Math.min(position, count))} onChange={(e) => setPosition(Number(e.currentTarget.value))}>
            {Array.from({ length: count + 1 }, (_, i) => (
              <option key={i} value={String(i)}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="small">
          Move
        </button>
      </form>
    </section>
  );
}

function CardActions({ card, board, change, onDeleted }: { card: Card; board: Board; change: Change; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section>
      <h3>Actions</h3>
      <div class="actions column">
        <button type="button" class="small" onClick={() => change(() => patch(`/api/cards/${card.id}`, { archived: !card.archived }))}>
          {card.archived ? 'Restore' : 'Archive'}
        </button>
        <button type="button" class="small" onClick={() => change(() => post(`/api/cards/${card.id}/copy`, {}))}>
          Copy
        </button>
        {board.role === 'admin' && (
          <button type="button" class="small danger" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <Confirm
          title="Delete this card?"
          message="The card, its checklists, comments and attachments are deleted for everyone. Archive it instead to keep it."
          confirmLabel="Delete card"
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            await del(`/api/cards/${card.id}`);
            setConfirming(false);
            onDeleted();
          }}
        />
      )}
    </section>
  );
}
