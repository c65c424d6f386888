import { useState } from 'preact/hooks';
import { ImportBoard } from './import-board';
import { get, post } from '../api';
import { link, navigate } from '../router';
import type { BoardSummary } from '../types';
import { Archive, LayoutDashboard } from 'lucide';
import { Alert, EmptyState, Markdown, MarkdownEditor, PageTitle, useAction, useLoad } from '../ui';

export function BoardsPage() {
  const [archived, setArchived] = useState(false);
  const boards = useLoad(() => get<{ boards: BoardSummary[] }>(`/api/boards?archived=${archived}`).then((r) => r.boards), [archived]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { error, busy, run } = useAction();

  return (
    <main>
      <PageTitle>Boards</PageTitle>
      <div class="toolbar">
        <fieldset class="segmented">
          <legend class="visually-hidden">Show</legend>
          <label class="inline">
            <input type="radio" name="archived" checked={!archived} onChange={() => setArchived(false)} /> Active
          </label>
          <label class="inline">
            <input type="radio" name="archived" checked={archived} onChange={() => setArchived(true)} /> Archived
          </label>
        </fieldset>
      </div>
      <Alert error={boards.error} />
      {boards.data && boards.data.length === 0 &&
        (archived ? (
          <EmptyState icon={Archive} title="No archived boards." testId="empty-boards">
            A board you archive from its settings waits here, and can be restored.
          </EmptyState>
        ) : (
          <EmptyState icon={LayoutDashboard} title="No boards yet." testId="empty-boards">
            Create your first board below: give it a name (a project, a team, a week), then add lists and cards on it. Boards others share with you show here too.
          </EmptyState>
        ))}
      <ul class="board-grid">
        {(boards.data ?? []).map((b) => (
          <li key={b.id}>
            <a class={`board-tile bg-${b.color}`} data-board-color={b.color} href={`/boards/${b.id}`} onClick={link(`/boards/${b.id}`)}>
              <strong>{b.name}</strong>
              {b.description && <Markdown text={b.description} class="hint board-desc" links={false} />}
              <span class="badge">{b.role}</span>
            </a>
          </li>
        ))}
      </ul>
      <section class="panel" aria-labelledby="new-board">
        <h2 id="new-board">New board</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const board = await post<BoardSummary>('/api/boards', { name, description: description || undefined });
              navigate(`/boards/${board.id}`);
            });
          }}
        >
          <label>
            Name
            <input name="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <MarkdownEditor label="Description (optional)" rows={2} value={description} onInput={setDescription} />
          <Alert error={error} />
          <button type="submit" class="primary" disabled={busy}>
            Create board
          </button>
        </form>
      </section>
      <ImportBoard />
    </main>
  );
}
