import { useId, useRef, useState } from 'preact/hooks';
import { Markdown } from './markdown';

/** Someone an `@` in the text can name: the server matches `@` + their address's local part (notifications/notify/match-mentions.ts). */
export interface Mentionable {
  userId: number;
  name: string;
  email: string;
}

/** `@` and what follows it, right before the caret, when it starts a mention (as the server reads them). */
const MENTION_AT_CARET = /(?:^|[^\p{L}\p{N}@._-])@([\p{L}\p{N}._-]*)$/u;
const fold = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const handleOf = (m: Mentionable) => m.email.split('@')[0] ?? m.name;

/**
 * A textarea for Markdown with Write / Preview (the preview is the same renderer the text is shown
 * with). Ctrl+Enter (⌘+Enter) calls `onSubmit`, Escape `onCancel`, when given. With `mentions`,
 * typing `@` opens a list of those people (filtered as one types; ↑ ↓ to choose, Enter or Tab to
 * pick, Escape to close, or a click), which puts `@handle` in the text.
 */
export function MarkdownEditor({
  label,
  value,
  onInput,
  rows = 5,
  placeholder,
  required,
  hideLabel,
  onSubmit,
  onCancel,
  mentions,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  rows?: number;
  placeholder?: string;
  required?: boolean;
  hideLabel?: boolean;
  onSubmit?: () => void;
  onCancel?: () => void;
  mentions?: Mentionable[];
}) {
  const [preview, setPreview] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const area = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const matches =
    query === null || !mentions
      ? []
      : mentions
          .filter((m) => {
            const q = fold(query);
            return !q || [m.name, ...m.name.split(/\s+/), handleOf(m)].some((s) => fold(s).startsWith(q));
          })
          .slice(0, 8);
  const open = matches.length > 0;

  const look = (el: HTMLTextAreaElement) => {
    if (!mentions) return;
    const before = el.value.slice(0, el.selectionStart);
    const m = MENTION_AT_CARET.exec(before);
    setQuery(m ? m[1]! : null);
    setActive(0);
  };
  const pick = (m: Mentionable) => {
    const el = area.current!;
    const caret = el.selectionStart;
    const before = el.value.slice(0, caret).replace(/@[\p{L}\p{N}._-]*$/u, `@${handleOf(m)} `);
    const text = before + el.value.slice(caret);
    onInput(text);
    setQuery(null);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(before.length, before.length);
    });
  };

  return (
    <div class="md-editor">
      <div class="md-editor-head">
        <span class={hideLabel ? 'visually-hidden' : 'md-editor-label'}>{label}</span>
        <span class="md-tabs" role="group" aria-label={`${label}: write or preview`}>
          <button type="button" class="small" aria-pressed={!preview} onClick={() => setPreview(false)}>
            Write
          </button>
          <button type="button" class="small" aria-pressed={preview} onClick={() => setPreview(true)}>
            Preview
          </button>
        </span>
      </div>
      {preview ? (
        <div class="md-preview" aria-label={`${label} preview`} role="region">
          {value.trim() ? <Markdown text={value} /> : <p class="hint">Nothing to preview.</p>}
        </div>
      ) : (
        <div class="md-input">
          <textarea
            ref={area}
            aria-label={label}
            rows={rows}
            value={value}
            required={required}
            placeholder={placeholder}
            // Preact's types allow a textarea only role="textbox"; ARIA 1.2 makes a textarea with a suggestion list a combobox.
            {...((mentions
              ? {
                  role: 'combobox',
                  'aria-autocomplete': 'list',
                  'aria-expanded': open,
                  'aria-controls': listId,
                  'aria-activedescendant': open ? `${listId}-${active}` : undefined,
                }
              : {}) as object)}
            onInput={(e) => {
              onInput(e.currentTarget.value);
              look(e.currentTarget);
            }}
            onClick={(e) => look(e.currentTarget)}
            onBlur={() => setTimeout(() => setQuery(null), 150)}
            onKeyDown={(e) => {
              if (open) {
                if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                  e.preventDefault();
                  setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
                  return;
                }
                if (e.key === 'Enter' || e.key === 'Tab') {
                  e.preventDefault();
                  pick(matches[Math.min(active, matches.length - 1)]!);
                  return;
                }
                if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  setQuery(null);
                  return;
                }
              }
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && onSubmit) {
                e.preventDefault();
                onSubmit();
              } else if (e.key === 'Escape' && onCancel) {
                e.preventDefault();
                e.stopPropagation();
                onCancel();
              }
            }}
          />
          {open && (
            <ul class="mention-list" role="listbox" id={listId} aria-label="Board members">
              {matches.map((m, i) => (
                <li
                  key={m.userId}
                  id={`${listId}-${i}`}
                  role="option"
                  aria-selected={i === active}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    pick(m);
                  }}
                >
                  <strong>{m.name}</strong> <span class="hint">@{handleOf(m)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p class="hint md-help">Markdown: **bold**, _italic_, `code`, [link](https://…), - lists, # headings{mentions ? '; @ names a member' : ''}.</p>
    </div>
  );
}
