import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Alert } from './feedback';

/**
 * A modal dialog on the native <dialog>: focus is trapped and Escape closes it. `heading` replaces
 * the plain <h2> (the card's title edited in place); the dialog is then named by `title`.
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
  heading,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
  heading?: ComponentChildren;
}) {
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
    <dialog ref={ref} class={wide ? 'modal wide' : 'modal'} {...(heading ? { 'aria-label': title } : { 'aria-labelledby': titleId })}>
      <header class="modal-head">
        {heading ?? <h2 id={titleId}>{title}</h2>}
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

/**
 * A button that asks first: it opens a Confirm, runs `action` once confirmed (an error it throws
 * is shown in the dialog, which stays open), closes the dialog, then calls `onDone` (re-read the
 * list, leave the page).
 */
export function ConfirmButton({
  children,
  class: className,
  label,
  title,
  message,
  confirmLabel,
  action,
  onDone,
}: {
  children: ComponentChildren;
  class?: string;
  /** The button's accessible name, when its text says too little in a row of them ("Revoke nightly-report"). */
  label?: string;
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  action: () => Promise<unknown>;
  onDone?: () => unknown;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" class={className} onClick={() => setAsking(true)} aria-label={label}>
        {children}
      </button>
      {asking && (
        <Confirm
          title={title}
          message={message}
          confirmLabel={confirmLabel}
          onCancel={() => setAsking(false)}
          onConfirm={async () => {
            await action();
            setAsking(false);
            await onDone?.();
          }}
        />
      )}
    </>
  );
}
