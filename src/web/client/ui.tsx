import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, messageOf } from './api';

/**
 * An error for the whole form. `fields`: the fields the form shows errors beside (FieldError); an
 * error naming one of them is shown there instead of here.
 */
export function Alert({ error, onDismiss, fields }: { error: unknown; onDismiss?: () => void; fields?: string[] }) {
  if (!error) return null;
  if (fields && error instanceof ApiError && error.field !== null && fields.includes(error.field)) return null;
  return (
    <div class="alert" role="alert">
      <span>{messageOf(error)}</span>
      {onDismiss && (
        <button type="button" class="link" onClick={onDismiss} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice" role="status">
      {children}
    </div>
  );
}

/** A modal dialog on the native <dialog>: focus is trapped and Escape closes it. */
export function Modal({ title, onClose, children, wide = false }: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    const closed = () => onClose();
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, [onClose]);
  return (
    <dialog ref={ref} class={wide ? 'modal wide' : 'modal'} aria-labelledby={titleId}>
      <header class="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="icon" onClick={() => ref.current?.close()} aria-label="Close">
          ×
        </button>
      </header>
      <div class="modal-body">{children}</div>
    </dialog>
  );
}

export function Confirm({
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Modal title={title} onClose={onCancel}>
      <p>{message}</p>
      <Alert error={error} />
      <div class="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onConfirm();
            } catch (e) {
              setError(e);
              setBusy(false);
            }
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

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

export function formatDate(iso: string | null, { time = false } = {}) {
  if (!iso) return '';
  const d = new Date(iso);
  return time
    ? d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]!.toUpperCase())
    .join('');
}

export function PageTitle({ children }: { children: string }) {
  useEffect(() => {
    document.title = `${children} · Task boards`;
  }, [children]);
  return <h1>{children}</h1>;
}

/** "Newest" / "Older" buttons under a list paged by an opaque cursor. */
export function Pager({ cursor, next, onPage, labels = ['Newest', 'Older'] }: { cursor: string | null; next: string | null | undefined; onPage: (cursor: string | null) => void; labels?: [string, string] }) {
  return (
    <div class="actions">
      {cursor && (
        <button type="button" class="small" onClick={() => onPage(null)}>
          {labels[0]}
        </button>
      )}
      {next && (
        <button type="button" class="small" onClick={() => onPage(next)}>
          {labels[1]}
        </button>
      )}
    </div>
  );
}

/** "1 comment", "2 comments"; irregular plurals pass their own (`plural(n, 'person', 'people')`). */
export function plural(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The server's error about `field` (its `field: message`), in sentence case; null when the error is about something else. */
export function errorFor(error: unknown, field: string): string | null {
  return error instanceof ApiError && error.field === field ? error.detail : null;
}

/**
 * The error beside a field: give the input `aria-describedby={id}` and `aria-invalid`. Fields are
 * matched by the API's name for them (`boardIds`, `email`), so every form maps the server's
 * `field: message` the same way.
 */
export function FieldError({ error, field, id }: { error: unknown; field: string; id: string }) {
  const message = errorFor(error, field);
  return message ? (
    <span class="field-error" id={id} role="alert">
      {message}
    </span>
  ) : null;
}

/** A link (or token) to hand over, with a Copy button and what became of the copy. */
export function CopyValue({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => setCopied(null), [value]);
  return (
    <div class="copy-value">
      <div class="token-row">
        <code class="token" data-testid={testId}>
          {value}
        </code>
        <button
          type="button"
          class="small"
          aria-label={`Copy ${label}`}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setCopied('yes');
            } catch {
              setCopied('failed');
            }
          }}
        >
          Copy
        </button>
      </div>
      <p role="status" class="hint">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? `Copying failed: select the ${label} and copy it by hand.` : ''}
      </p>
    </div>
  );
}
