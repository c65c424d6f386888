import { useEffect, useState } from 'preact/hooks';
import { patch } from '../../api';
import { Markdown, MarkdownEditor } from '../../ui';
import type { Part } from './part';

/**
 * The title (a form for editors) and the description, rendered from its Markdown; editors click it
 * (or "Edit description") to edit it with a preview, Ctrl+Enter saves and Escape cancels.
 */
export function TitleAndDescription({ card, canEdit, change }: Part) {
  // `base` is the card the inputs started from. A live change replaces it only while the person
  // has not typed (their edit is never dropped silently); their save names the version they saw,
  // so a card that moved on meanwhile answers 409, and the dialog then shows the latest card.
  const [base, setBase] = useState(card);
  const [title, setTitle] = useState(card.title);
  const [description, setDescription] = useState(card.description);
  const [editing, setEditing] = useState(false);
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
  const shown = (
    <div class="description">{card.description ? <Markdown text={card.description} /> : <p class="hint">No description.</p>}</div>
  );
  if (!canEdit)
    return (
      <section>
        <h3>Description</h3>
        {shown}
      </section>
    );
  const save = async () => {
    const ok = await change(() =>
      patch(`/api/cards/${card.id}`, {
        ...(title !== base.title ? { title } : {}),
        ...(description !== base.description ? { description } : {}),
        version: base.version,
      }),
    );
    if (!ok) setRefused(true);
    else setEditing(false);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        Title
        <input value={title} required onInput={(e) => setTitle(e.currentTarget.value)} />
      </label>
      {editing ? (
        <MarkdownEditor
          label="Description"
          value={description}
          onInput={setDescription}
          onSubmit={() => void save()}
          onCancel={() => {
            setDescription(base.description);
            setEditing(false);
          }}
        />
      ) : (
        <section class="description-view">
          <div class="description-head">
            <h3>Description</h3>
            <button type="button" class="small" onClick={() => setEditing(true)}>
              Edit description
            </button>
          </div>
          {/* A click on the text edits it too, unless the click was on a link in it. */}
          <div onClick={(e) => !(e.target as Element).closest('a') && setEditing(true)}>{shown}</div>
        </section>
      )}
      {(dirty || editing) && (
        <div class="actions start">
          <button type="submit" class="primary small" disabled={!dirty}>
            Save
          </button>
          {editing && (
            <button
              type="button"
              class="small"
              onClick={() => {
                setDescription(base.description);
                setEditing(false);
              }}
            >
              Cancel
            </button>
          )}
        </div>
      )}
    </form>
  );
}
