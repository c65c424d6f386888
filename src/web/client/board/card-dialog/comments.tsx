import { useState } from 'preact/hooks';
import { del, post } from '../../api';
import { useSession } from '../../session';
import type { Card } from '../../types';
import { formatDate } from '../../ui';
import type { Change } from './part';

/** The card's newest comments and a form to write one; authors delete their own. */
export function Comments({ card, change }: { card: Card; change: Change }) {
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
