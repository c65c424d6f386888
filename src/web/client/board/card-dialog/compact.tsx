import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * A compact section of the card back (labels, members, due date): a small heading, what the card
 * has, and a "+" that opens a panel under it to change that (its first control takes the focus).
 * Escape closes the panel, not the card, and gives the focus back to the "+".
 */
export function Compact({
  title,
  editLabel,
  canEdit,
  open,
  onOpen,
  summary,
  children,
}: {
  title: string;
  editLabel: string;
  canEdit: boolean;
  open: boolean;
  onOpen: (open: boolean) => void;
  summary: ComponentChildren;
  children: ComponentChildren;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Focused as it appears (a layout effect): a key pressed right after `l` goes to the panel.
  useLayoutEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, [open]);
  const close = () => {
    onOpen(false);
    requestAnimationFrame(() => button.current?.focus());
  };
  return (
    <section class="compact">
      <h3>{title}</h3>
      <div class="compact-row">
        {summary}
        {canEdit && (
          <button ref={button} type="button" class="small compact-add" aria-expanded={open} aria-label={editLabel} title={editLabel} onClick={() => (open ? close() : onOpen(true))}>
            +
          </button>
        )}
      </div>
      {open && canEdit && (
        <div
          ref={panel}
          class="compact-panel"
          role="group"
          aria-label={editLabel}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.stopPropagation();
            close();
          }}
        >
          {children}
        </div>
      )}
    </section>
  );
}
