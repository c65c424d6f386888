import { useState } from 'preact/hooks';
import { get } from '../api';
import type { Activity } from '../types';
import { Alert, formatDate, useLoad } from '../ui';

/** What happened on the board, newest first; live events join at the top as they arrive. */
export function ActivityPanel({ boardId, live, onClose }: { boardId: number; live: Activity[]; onClose: () => void }) {
  const [older, setOlder] = useState<Activity[]>([]);
  const [before, setBefore] = useState<number | null>(null);
  const first = useLoad(async () => {
    const page = await get<{ activities: Activity[]; nextBefore: number | null }>(`/api/boards/${boardId}/activity?limit=50`);
    setBefore(page.nextBefore);
    return page.activities;
  }, [boardId]);
  const seen = new Set<number>();
  const all = [...live, ...(first.data ?? []), ...older].filter((a) => (seen.has(a.id) ? false : (seen.add(a.id), true)));
  return (
    <aside class="activity" aria-labelledby="activity-heading">
      <header>
        <h2 id="activity-heading">Activity</h2>
        <button type="button" class="icon" onClick={onClose} aria-label="Close activity">
          ×
        </button>
      </header>
      <Alert error={first.error} />
      <ol>
        {all.map((a) => (
          <li key={a.id}>
            <strong>{a.actor.name}</strong> {describe(a)}
            {a.actor.keyId !== null && <span class="hint"> (API key)</span>}
            <br />
            <time class="hint" dateTime={a.createdAt}>
              {formatDate(a.createdAt, { time: true })}
            </time>
          </li>
        ))}
      </ol>
      {before !== null && (
        <button
          type="button"
          class="small"
          onClick={async () => {
            const page = await get<{ activities: Activity[]; nextBefore: number | null }>(`/api/boards/${boardId}/activity?limit=50&before=${before}`);
            setOlder((o) => [...o, ...page.activities]);
            setBefore(page.nextBefore);
          }}
        >
          Older
        </button>
      )}
    </aside>
  );
}

function describe(a: Activity): string {
  const name = (key: string) => {
    const value = a.data[key] as { title?: string; name?: string } | undefined;
    return value?.title ?? value?.name ?? '';
  };
  const card = name('card');
  const [resource, verb] = a.type.split('.') as [string, string];
  const what = card ? `“${card}”` : name(resource) ? `“${name(resource)}”` : '';
  const verbs: Record<string, string> = {
    created: 'created',
    updated: 'updated',
    moved: 'moved',
    copied: 'copied',
    archived: 'archived',
    deleted: 'deleted',
    label_added: 'labelled',
    label_removed: 'unlabelled',
    member_added: 'assigned someone to',
    member_removed: 'unassigned someone from',
    field_set: 'set a field on',
    converted: 'converted an item of',
    added: 'added a member to',
    removed: 'removed a member from',
    invited: 'invited someone to',
    revoked: 'revoked an invitation to',
  };
  const noun = resource.replace('_', ' ');
  return `${verbs[verb] ?? verb} ${noun === 'card' || noun === 'member' || noun === 'invitation' ? '' : `${noun} `}${what}`.replace(/\s+/g, ' ').trim();
}
