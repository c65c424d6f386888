import type { ComponentProps } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Alert, Modal } from '../ui';
import type { CardDialog } from './card-dialog';

type Dialog = typeof CardDialog;

/** Once loaded, kept: later cards open at once. */
let loaded: Dialog | null = null;

/**
 * The card dialog, fetched the first time a card is opened (esbuild puts it in a chunk of its
 * own), so a board's first load does not carry the card back's code.
 */
export function CardDialogLoader(props: ComponentProps<Dialog>) {
  const [Loaded, setLoaded] = useState<Dialog | null>(() => loaded);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (Loaded) return;
    import('./card-dialog').then(
      (module) => {
        loaded = module.CardDialog;
        setLoaded(() => module.CardDialog);
      },
      () => setError(new Error('The card could not be loaded. Check your connection and reload the page.')),
    );
  }, [Loaded]);
  if (Loaded) return <Loaded {...props} />;
  return (
    <Modal title="Card" onClose={props.onClose}>
      {error ? <Alert error={error} /> : <p>Loading…</p>}
    </Modal>
  );
}
