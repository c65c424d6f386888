import { useEffect, useState } from 'preact/hooks';
import { patch } from '../../api';
import type { Part } from './part';

/** The title and description: a form for editors, the text for observers. */
export function TitleAndDescription({ card, canEdit, change }: Part) {
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
