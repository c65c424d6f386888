import { useState } from 'preact/hooks';
import { del, patch, post } from '../../api';
import { useSession } from '../../session';
import type { Board, Card, Comment } from '../../types';
import { ConfirmButton, formatDate, Markdown, MarkdownEditor, When } from '../../ui';
import type { Change } from './part';

/**
 * The card's newest comments, rendered from their Markdown, and a form to write one (`@` offers the
 * board's members). Authors edit theirs (marked edited; the earlier text stays in the activity) and
 * delete theirs; board admins delete anyone's.
 */
export function Comments({ card, board, change }: { card: Card; board: Board; change: Change }) {
  const { user } = useSession();
  const [text, setText] = useState('');
  const send = async () => {
    if (text.trim() && (await change(() => post(`/api/cards/${card.id}/comments`, { text })))) setText('');
  };
  return (
    <section>
      <h3>Comments</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <MarkdownEditor label="Write a comment" hideLabel rows={2} value={text} required placeholder="Write a comment… (@ to mention)" onInput={setText} onSubmit={() => void send()} mentions={board.members} />
        <button type="submit" class="small">
          Comment
        </button>
      </form>
      <ol class="comments">
        {card.comments.map((c) => (
          <CommentItem key={c.id} comment={c} mine={c.author.userId === user.id} admin={board.role === 'admin'} board={board} change={change} />
        ))}
      </ol>
    </section>
  );
}

function CommentItem({ comment: c, mine, admin, board, change }: { comment: Comment; mine: boolean; admin: boolean; board: Board; change: Change }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.text);
  const edited = c.updatedAt !== c.createdAt;
  const save = async () => {
    if (text.trim() === c.text) return setEditing(false);
    if (await change(() => patch(`/api/comments/${c.id}`, { text }))) setEditing(false);
  };
  return (
    <li data-comment-id={c.id}>
      <p class="hint comment-head">
        <strong>{c.author.name}</strong> · <When iso={c.createdAt} />
        {c.importedAt && (
          // Its author is the person the importer matched: said, so that words brought in by someone else never read as theirs.
          <span class="comment-imported" title={`Imported ${formatDate(c.importedAt, { time: true })}, with its author matched by whoever imported the board`}>
            {' '}
            · imported
          </span>
        )}
        {edited && <span title={`Edited ${formatDate(c.updatedAt, { time: true })}`}> · edited</span>}
        {mine && !editing && (
          <button
            type="button"
            class="link small"
            onClick={() => {
              setText(c.text);
              setEditing(true);
            }}
            aria-label="Edit this comment"
          >
            Edit
          </button>
        )}
        {(mine || admin) && (
          <ConfirmButton
            class="link small"
            label="Delete this comment"
            title="Delete this comment?"
            message={mine ? 'Your comment is deleted for everyone.' : `${c.author.name}’s comment is deleted for everyone.`}
            confirmLabel="Delete comment"
            action={() => change(() => del(`/api/comments/${c.id}`))}
          >
            Delete
          </ConfirmButton>
        )}
      </p>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <MarkdownEditor label="Edit your comment" rows={3} value={text} required onInput={setText} onSubmit={() => void save()} onCancel={() => setEditing(false)} mentions={board.members} />
          <div class="actions start">
            <button type="submit" class="primary small">
              Save comment
            </button>
            <button type="button" class="small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <Markdown text={c.text} class="comment-text" />
      )}
    </li>
  );
}
