import type { Board, CardSummary } from '../types';

/** The board with one card moved to `index` of `listId` (positions renumbered), as the server will do. */
export function withCardMoved(board: Board, cardId: number, listId: number, index: number): Board {
  let moving: CardSummary | undefined;
  const lists = board.lists.map((l) => {
    const kept = l.cards.filter((c) => {
      if (c.id !== cardId) return true;
      moving = c;
      return false;
    });
    return { ...l, cards: kept };
  });
  if (!moving) return board;
  const target = lists.find((l) => l.id === listId);
  if (!target) return board;
  const at = Math.max(0, Math.min(index, target.cards.length));
  target.cards.splice(at, 0, { ...moving, listId });
  for (const l of lists) l.cards = l.cards.map((c, position) => (c.position === position ? c : { ...c, position }));
  return { ...board, lists };
}

export function withListMoved(board: Board, listId: number, index: number): Board {
  const moving = board.lists.find((l) => l.id === listId);
  if (!moving) return board;
  const lists = board.lists.filter((l) => l.id !== listId);
  lists.splice(Math.max(0, Math.min(index, lists.length)), 0, moving);
  return { ...board, lists: lists.map((l, position) => ({ ...l, position })) };
}

export function findCard(board: Board, cardId: number) {
  for (const list of board.lists) {
    const index = list.cards.findIndex((c) => c.id === cardId);
    if (index >= 0) return { list, index, card: list.cards[index]! };
  }
  return null;
}

/** Index among the items (the dragged one left out) before which a point at `coordinate` falls. */
export function dropIndex(elements: Element[], coordinate: number, axis: 'x' | 'y') {
  let index = 0;
  for (const element of elements) {
    const r = element.getBoundingClientRect();
    const middle = axis === 'y' ? r.top + r.height / 2 : r.left + r.width / 2;
    if (coordinate > middle) index++;
  }
  return index;
}
