import { useEffect, useRef } from 'preact/hooks';

/** How long a finger rests on a card before it lifts (a shorter touch is a tap, which opens the card). */
export const LONG_PRESS_MS = 400;
/** A finger that travels further than this before the press is long is a swipe: the browser scrolls. */
const SLOP_PX = 10;
/** Within this distance of the lists' left or right edge (or the window's top or bottom), a held card scrolls them. */
const EDGE_PX = 48;
/** The fastest scroll while a card is held at an edge, in pixels per frame. */
const MAX_SPEED = 16;

export interface TouchDragHandlers {
  /** A long press lifted this card. */
  start(cardId: number): void;
  /** The lifted card is over this point of the window (after each finger move and each scroll). */
  over(x: number, y: number): void;
  /** The finger left the screen: drop the card where it was last shown. */
  drop(): void;
  /** The drag was taken away (another touch, the browser's own gesture): nothing moves. */
  cancel(): void;
}

type Held = {
  cardId: number;
  /** The node the finger touched: touch events go on being sent to it even if a render removes it. */
  node: EventTarget;
  tile: HTMLElement;
  startX: number;
  startY: number;
  x: number;
  y: number;
  timer: ReturnType<typeof setTimeout> | null;
  ghost: HTMLElement | null;
  /** Where the finger holds the tile, from its top left corner. */
  grabX: number;
  grabY: number;
  frame: number;
  stop: () => void;
};

/**
 * Card drag on a touch screen, as on a phone: a long press lifts the card (a copy follows the
 * finger), moving the finger shows where it will land, lifting it drops it there; near the lists'
 * edges, and the window's top and bottom, they scroll. A quick tap still opens the card, and a
 * swipe that starts on a card still scrolls (the press was not long enough to lift it).
 *
 * Touch events, not pointer events: only a `touchmove` listener that is not passive can keep the
 * browser from scrolling once the card is lifted. With pointer events the browser would take a
 * moving finger for a scroll and cancel them, unless the cards had `touch-action: none`, which
 * would stop a swipe on a card from scrolling at all. The mouse keeps HTML5 drag and drop.
 *
 * Listens for touches on `lists` (the element holding the cards); returns props for it.
 */
export function useTouchCardDrag(enabled: boolean, lists: { current: HTMLElement | null }, handlers: TouchDragHandlers) {
  const latest = useRef(handlers);
  latest.current = handlers;
  const on = useRef(enabled);
  on.current = enabled;
  const held = useRef<Held | null>(null);
  // Passive: the browser need not wait for this listener before it scrolls (only a lifted card's
  // touchmove, below, is not passive).
  useEffect(() => {
    const box = lists.current;
    if (!box) return;
    box.addEventListener('touchstart', onTouchStart, { passive: true });
    return () => {
      box.removeEventListener('touchstart', onTouchStart);
      held.current?.stop();
    };
  }, []);

  const lift = (h: Held) => {
    h.timer = null;
    const rect = h.tile.getBoundingClientRect();
    h.grabX = h.startX - rect.left;
    h.grabY = h.startY - rect.top;
    const ghost = h.tile.cloneNode(true) as HTMLElement;
    ghost.className = 'card drag-ghost';
    ghost.setAttribute('aria-hidden', 'true');
    ghost.removeAttribute('data-card-id');
    ghost.style.width = `${rect.width}px`;
    document.body.append(ghost);
    h.ghost = ghost;
    document.documentElement.classList.add('touch-dragging');
    place(h);
    latest.current.start(h.cardId);
    latest.current.over(h.x, h.y);
    h.frame = requestAnimationFrame(() => edgeScroll(h));
  };

  const place = (h: Held) => {
    if (h.ghost) h.ghost.style.transform = `translate(${h.x - h.grabX}px, ${h.y - h.grabY}px) rotate(3deg)`;
  };

  /** Each frame the card is held: near an edge, scroll that way (faster the closer), then say where it is now. */
  const edgeScroll = (h: Held) => {
    if (held.current !== h) return;
    const box = lists.current;
    const speed = (distance: number) => Math.ceil(MAX_SPEED * Math.min(1, (EDGE_PX - distance) / EDGE_PX));
    let moved = false;
    if (box) {
      const r = box.getBoundingClientRect();
      const before = box.scrollLeft;
      if (h.x < r.left + EDGE_PX) box.scrollLeft -= speed(Math.max(0, h.x - r.left));
      else if (h.x > r.right - EDGE_PX) box.scrollLeft += speed(Math.max(0, r.right - h.x));
      moved = box.scrollLeft !== before;
    }
    const top = window.scrollY;
    if (h.y < EDGE_PX) window.scrollBy(0, -speed(Math.max(0, h.y)));
    else if (h.y > window.innerHeight - EDGE_PX) window.scrollBy(0, speed(Math.max(0, window.innerHeight - h.y)));
    if (moved || window.scrollY !== top) latest.current.over(h.x, h.y);
    h.frame = requestAnimationFrame(() => edgeScroll(h));
  };

  const onTouchStart = (e: TouchEvent) => {
    held.current?.stop();
    if (!on.current || e.touches.length !== 1) return;
    const target = e.target as Element;
    const tile = target.closest<HTMLElement>('li.card[data-card-id]');
    if (!tile || !lists.current?.contains(tile)) return;
    const touch = e.touches[0]!;
    const node = target;
    const h: Held = {
      cardId: Number(tile.dataset.cardId),
      node,
      tile,
      startX: touch.clientX,
      startY: touch.clientY,
      x: touch.clientX,
      y: touch.clientY,
      timer: null,
      ghost: null,
      grabX: 0,
      grabY: 0,
      frame: 0,
      stop: () => {
        if (h.timer) clearTimeout(h.timer);
        cancelAnimationFrame(h.frame);
        h.ghost?.remove();
        document.documentElement.classList.remove('touch-dragging');
        node.removeEventListener('touchmove', move);
        node.removeEventListener('touchend', end);
        node.removeEventListener('touchcancel', cancel);
        if (held.current === h) held.current = null;
      },
    };
    const move = (ev: Event) => {
      const t = (ev as TouchEvent).touches[0];
      if (!t) return;
      h.x = t.clientX;
      h.y = t.clientY;
      if (!h.ghost) {
        // Moved before the press was long: a swipe, which the browser scrolls.
        if (Math.hypot(h.x - h.startX, h.y - h.startY) > SLOP_PX) h.stop();
        return;
      }
      if (ev.cancelable) ev.preventDefault();
      place(h);
      latest.current.over(h.x, h.y);
    };
    const end = (ev: Event) => {
      const lifted = h.ghost !== null;
      h.stop();
      if (!lifted) return;
      // No click after a drop: the card is not opened.
      if (ev.cancelable) ev.preventDefault();
      latest.current.drop();
    };
    const cancel = () => {
      const lifted = h.ghost !== null;
      h.stop();
      if (lifted) latest.current.cancel();
    };
    node.addEventListener('touchmove', move, { passive: false });
    node.addEventListener('touchend', end);
    node.addEventListener('touchcancel', cancel);
    h.timer = setTimeout(() => lift(h), LONG_PRESS_MS);
    held.current = h;
  };

  return {
    // A long press is the drag's, not the browser's: no context menu, and no HTML5 drag of its own
    // (Chrome on Android starts one on a long press of a draggable element).
    onContextMenu: (e: Event) => {
      if (held.current) e.preventDefault();
    },
    onDragStartCapture: (e: DragEvent) => {
      if (held.current) e.preventDefault();
    },
  };
}
