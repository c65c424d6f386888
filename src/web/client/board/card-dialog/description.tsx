import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { patch } from '../../api';
import { Markdown, MarkdownEditor } from '../../ui';
import type { Openable, Part } from './part';

/**
 * The card's title as the dialog's heading; editors click it (or press `e`) to edit it in place:
 * Enter or Ctrl+Enter saves, Escape cancels (the card stays open), leaving the field saves.
 * The save names the version the edit started from: a card changed meanwhile answers 409, the
 * dialog shows why, and the person's text stays for them to save again over the latest card.
 */
export function CardTitle({ card, canEdit, change, open, onOpen }: Part & Openable) {
  const [text, setText] = useState(card.title);
  // The version the edit started from; null after a refusal: the next save is over the card now shown.
  const base = useRef<number | null>(card.version);
  const done = useRef(false);
  const area = useRef<HTMLTextAreaElement>(null);
  // Before the field can take a key (a layout effect, not a frame later): the card's title in it,
  // focused, the caret at the end as Trello puts it, so what is typed is added, nothing replaced.
  useLayoutEffect(() => {
    if (!open) return;
    setText(card.title);
    base.current = card.version;
    done.current = false;
    const el = area.current;
    if (!el) return;
    el.value = card.title;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [open]);
  if (!canEdit || !open)
    return (
      <h2 class="card-title">
        {canEdit ? (
          <button type="button" class="title-edit" onClick={() => onOpen(true)} title="Edit the title">
            {card.title}
          </button>
        ) : (
          card.title
        )}
      </h2>
    );
  const cancel = () => {
    done.current = true;
    onOpen(false);
  };
  const save = async () => {
    const title = text.trim();
    if (done.current) return;
    if (!title || title === card.title) return cancel();
    done.current = true;
    const ok = await change(() => patch(`/api/cards/${card.id}`, { title, version: base.current ?? card.version }));
    if (ok) return onOpen(false);
    // Refused (409: changed meanwhile): the text stays; saving again is over the card now shown.
    done.current = false;
    base.current = null;
  };
  return (
    <textarea
      ref={area}
      class="card-title-input"
      aria-label="Title"
      rows={1}
      value={text}
      maxLength={512}
      onInput={(e) => setText(e.currentTarget.value.replace(/\n/g, ' '))}
      onBlur={() => void save()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          void save();
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          cancel();
        }
      }}
    />
  );
}

/**
 * The description, rendered from its Markdown; editors click it (or "Edit") to edit it with a
 * preview, Ctrl+Enter saves and Escape cancels.
 */
export function Description({ card, canEdit, change }: Part) {
  // `base` is the card the editor started from. A live change replaces it only while the person
  // has not typed (their edit is never dropped silently); their save names the version they saw,
  // so a card that moved on meanwhile answers 409, and the dialog then shows the latest card.
  const [base, setBase] = useState(card);
  const [description, setDescription] = useState(card.description);
  const [editing, setEditing] = useState(false);
  const [refused, setRefused] = useState(false);
  const section = useRef<HTMLElement>(null);
  // Focused as it appears (a layout effect): a key typed right after the click goes into it.
  useLayoutEffect(() => {
    if (editing) section.current?.querySelector('textarea')?.focus();
  }, [editing]);
  const dirty = description !== base.description;
  useEffect(() => {
    if (dirty && description !== card.description && !refused) return;
    setBase(card);
    setDescription(card.description);
    setRefused(false);
  }, [card.version, refused]);
  const shown = (
    <div class="description">{card.description ? <Markdown text={card.description} /> : <p class="hint">{canEdit ? 'Add a more detailed description…' : 'No description.'}</p>}</div>
  );
  const cancel = () => {
    setDescription(base.description);
    setEditing(false);
  };
  const save = async () => {
    if (!dirty) return setEditing(false);
    const ok = await change(() => patch(`/api/cards/${card.id}`, { description, version: base.version }));
    if (!ok) setRefused(true);
    else setEditing(false);
  };
  return (
    <section class="description-view" ref={section}>
      <div class="description-head">
        <h3>Description</h3>
        {canEdit && !editing && (
          <button type="button" class="small" aria-label="Edit description" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
      </div>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <MarkdownEditor label="Description" value={description} onInput={setDescription} onSubmit={() => void save()} onCancel={cancel} />
          <div class="actions start">
            <button type="submit" class="primary small">
              Save
            </button>
            <button type="button" class="small" onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        // A click on the text edits it too, unless the click was on a link in it.
        <div onClick={(e) => canEdit && !(e.target as Element).closest('a') && setEditing(true)}>{shown}</div>
      )}
    </section>
  );
}
