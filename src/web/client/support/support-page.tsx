import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Alert } from '../ui';

type Console = ComponentType<{ path: string }>;

/** Once loaded, kept: later visits draw the console at once. */
let loaded: Console | null = null;

/**
 * /support/…: the support console, fetched the first time it is opened (esbuild puts it in a
 * chunk of its own), so a board's first load does not carry the console's code.
 */
export function SupportPage({ path }: { path: string }) {
  const [Page, setPage] = useState<Console | null>(() => loaded);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (Page) return;
    import('./console').then(
      (module) => {
        loaded = module.SupportConsole;
        setPage(() => module.SupportConsole);
      },
      () => setError(new Error('The support console could not be loaded. Check your connection and reload the page.')),
    );
  }, [Page]);
  if (Page) return <Page path={path} />;
  return <main>{error ? <Alert error={error} /> : <p>Loading…</p>}</main>;
}
