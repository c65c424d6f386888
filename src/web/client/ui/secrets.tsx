import type { ComponentChildren } from 'preact';
import { useCallback, useRef, useState } from 'preact/hooks';

/** A secret the server shows once: a token, a key or a signing secret. */
export interface OneTimeSecret {
  id: number;
  /** "Workspace token", "Answer key “widget”": names the box (its region's label). */
  label: string;
  value: string;
  /** What to do with it, after "copy it now". */
  hint?: ComponentChildren;
}

/**
 * Secrets shown once, each kept until its own "I have stored it": a second secret made before the
 * first is copied joins it instead of replacing it (a replaced secret is lost for good).
 */
export function useSecrets() {
  const [secrets, setSecrets] = useState<OneTimeSecret[]>([]);
  const next = useRef(1);
  const add = useCallback((secret: Omit<OneTimeSecret, 'id'>) => {
    const id = next.current++;
    setSecrets((all) => [{ ...secret, id }, ...all]);
  }, []);
  const dismiss = useCallback((id: number) => setSecrets((all) => all.filter((s) => s.id !== id)), []);
  return { secrets, add, dismiss };
}

/** The boxes of `useSecrets()`, newest first. */
export function SecretBoxes({ secrets, dismiss }: { secrets: OneTimeSecret[]; dismiss: (id: number) => void }) {
  return (
    <>
      {secrets.map((secret) => (
        <SecretBox key={secret.id} secret={secret} onDone={() => dismiss(secret.id)} />
      ))}
    </>
  );
}

function SecretBox({ secret, onDone }: { secret: OneTimeSecret; onDone: () => void }) {
  return (
    <div class="token-box" role="region" aria-label={secret.label}>
      <p>
        <strong>{secret.label}: copy it now, you will not see it again.</strong> {secret.hint}
      </p>
      <CopyRow value={secret.value} testId="new-secret" />
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

/** A value to copy (a secret, a snippet) with its Copy button, and what copying did, announced. */
export function CopyRow({ value, testId, label = 'Copy' }: { value: string; testId?: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  return (
    <>
      <div class="token-row">
        <code class="token" data-testid={testId}>
          {value}
        </code>
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(value).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            )
          }
        >
          {label}
        </button>
      </div>
      <p role="status">{copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying failed: select it and copy it by hand.' : ''}</p>
    </>
  );
}
