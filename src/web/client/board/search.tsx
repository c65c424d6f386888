import { useState } from 'preact/hooks';
import { get } from '../api';
import type { CardSummary } from '../types';
import { Alert, useAction } from '../ui';

/**
 * Full-text search over the board's cards (titles, descriptions, checklist items, comments);
 * "Include archived" searches archived cards and lists too. (The board's Filter hides cards in
 * place; this finds them, archived ones too, and opens one.)
 */
export function SearchBox({ boardId, onOpen }: { boardId: number; onOpen: (cardId: number) => void }) {
  const [q, setQ] = useState('');
  const [archived, setArchived] = useState(false);
  const [results, setResults] = useState<CardSummary[] | null>(null);
  const { error, run } = useAction();
  const search = (withArchived: boolean) => {
    if (!q.trim()) return setResults(null);
    void run(async () =>
      setResults((await get<{ cards: CardSummary[] }>(`/api/boards/${boardId}/search?q=${encodeURIComponent(q.trim())}${withArchived ? '&archived=true' : ''}`)).cards),
    );
  };
  return (
    <div class="search">
      <form
        role="search"
        class="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          search(archived);
        }}
      >
        <label>
          <span class="visually-hidden">Search cards</span>
          <input id="board-search" type="search" placeholder="Search cards" value={q} onInput={(e) => setQ(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Escape' && setResults(null)} />
        </label>
        <label class="inline switch">
          <input
            type="checkbox"
            role="switch"
            checked={archived}
            onChange={(e) => {
              setArchived(e.currentTarget.checked);
              if (results) search(e.currentTarget.checked);
            }}
          />{' '}
          Include archived
        </label>
      </form>
      <Alert error={error} />
      {results && (
        <div class="search-results" role="region" aria-label="Search results">
          {results.length === 0 ? (
            <p class="hint">No card matches “{q}”.</p>
          ) : (
            <ul>
              {results.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    class="link"
                    onClick={() => {
                      setResults(null);
                      onOpen(c.id);
                    }}
                  >
                    {c.title}
                    {c.archived && ' (archived)'}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <button type="button" class="link small" onClick={() => setResults(null)}>
            Close results
          </button>
        </div>
      )}
    </div>
  );
}
