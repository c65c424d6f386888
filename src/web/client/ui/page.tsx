import { useEffect, useState } from 'preact/hooks';

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
