import { api, get } from '../api';
import { Alert, useAction, useLoad } from '../ui';

/** The card dialog's Watch button: watching a card tells you of every change to it. */
export function WatchToggle({ cardId }: { cardId: number }) {
  const { data, setData, error } = useLoad(() => get<{ watching: boolean }>(`/api/cards/${cardId}/watch`), [cardId]);
  const action = useAction();
  if (!data) return <Alert error={error} />;
  return (
    <section class="card-part watch">
      <button
        type="button"
        aria-pressed={data.watching}
        disabled={action.busy}
        title={data.watching ? 'You are told of every change to this card' : 'Be told of every change to this card'}
        onClick={() => void action.run(async () => setData(await api<{ watching: boolean }>(data.watching ? 'DELETE' : 'PUT', `/api/cards/${cardId}/watch`)))}
      >
        {data.watching ? 'Watching' : 'Watch'}
      </button>
      <Alert error={action.error} />
    </section>
  );
}
