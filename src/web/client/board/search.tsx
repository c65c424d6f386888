import { useState } from 'preact/hooks';
import { get } from '../api';
import type { CardSummary } from '../types';
import { Alert, useAction } from '../ui';

/** Full-text search over the board's cards (titles, descriptions, checklist items, comments). */
export function SearchBox({ boardId, onOpen }: { boardId: number; onOpen: (cardId: number) => void }) {
  const [q, setQ] = useState('');
  const [results, setResults] = useState<CardSummary[] | null>(null);
  const { error, run } = useAction();
  return (
    <div class="search">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (!q.trim()) return setResults(null);
          void run(async () => setResults((await get<{ cards: CardSummary[] }>(`/api/boards/${boardId}/search?q=${encodeURIComponent(q.trim())}`)).cards));
        }}
      >
        <label>
          <span class="visually-hidden">Search cards</span>
          <input type="search" placeholder="Search cards" value={q} onInput={(e) => setQ(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Escape' && setResults(null)} />
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
