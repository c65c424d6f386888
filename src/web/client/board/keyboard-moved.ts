import { useEffect, useRef } from 'preact/hooks';

/**
 * The card last moved with the keyboard (Alt+arrows), whose new element takes the focus after the
 * render that moved it (the board's lists and the calendar's days draw a moved card anew); forgotten once the person
 * focuses or presses elsewhere. `focusable` finds the element to focus inside the card's `[data-card-id]`.
 */
export function useKeyboardMovedCard(focusable: string) {
  const moved = useRef<number | null>(null);
  useEffect(() => {
    const id = moved.current;
    if (id === null) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    document.querySelector<HTMLElement>(`[data-card-id="${id}"] ${focusable}`)?.focus();
  });
  useEffect(() => {
    const elsewhere = (e: Event) => {
      const id = moved.current;
      if (id !== null && !(e.target instanceof Element && e.target.closest(`[data-card-id="${id}"]`))) moved.current = null;
    };
    document.addEventListener('focusin', elsewhere, true);
    document.addEventListener('pointerdown', elsewhere, true);
    return () => {
      document.removeEventListener('focusin', elsewhere, true);
      document.removeEventListener('pointerdown', elsewhere, true);
    };
  }, []);
  return moved;
}
