import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** Loads on mount and when deps change; `reload` fetches again, keeping the old data meanwhile. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const generation = useRef(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const value = await load();
      if (mine === generation.current) {
        setData(value);
        setError(null);
      }
    } catch (e) {
      if (mine === generation.current) setError(e);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload, setData };
}

/** Runs an action, keeping its error for display and a busy flag for the button. */
export function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { error, busy, run, setError };
}

/**
 * A ref that takes focus when its element mounts. Preact renders `autoFocus` as the HTML
 * attribute, which the browser honours once per page load only: the second "+ Add a card" opened
 * with focus on the body and the typing was lost.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
