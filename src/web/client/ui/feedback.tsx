import type { ComponentChildren } from 'preact';
import { ApiError, messageOf } from '../api';

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
