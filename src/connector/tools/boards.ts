import { z } from 'zod';
import { createItem } from '../../boards/checklists/create-item.js';
import { createChecklist } from '../../boards/checklists/create-checklist.js';
import { getCard } from '../../boards/cards/get-card.js';
import { moveCard } from '../../boards/cards/move-card.js';
import { updateCard } from '../../boards/cards/update-card.js';
import { createComment } from '../../boards/comments/create-comment.js';
import { createCard } from '../../boards/cards/create-card.js';
import { getBoardJson } from '../../boards/boards/get-board.js';
import { listActivity } from '../../boards/boards/list-activity.js';
import { decodeDueCursor, listAssignedCards } from '../../boards/cards/list-assigned-cards.js';
import { listBoards } from '../../boards/boards/list-boards.js';
import { presentBoard } from '../../boards/presenters.js';
import * as s from '../../boards/schemas.js';
import { searchCards } from '../../boards/search/search-cards.js';
import { decodeSearchCursor, searchAllBoards } from '../../boards/search/search-all-boards.js';
import { id } from '../../platform/schemas.js';
import { tool, type ToolContext } from './tool.js';

/** A page size, as the REST API's `?limit=` (a number here rather than a query string). */
export const limit = (fallback: number, max: number) => {
  const message = `must be a whole number from 1 to ${max}`;
  return z.number({ message }).int({ message }).min(1, { message }).max(max, { message }).default(fallback).describe(`Page size, 1-${max} (default ${fallback}).`);
};

const board = (ctx: ToolContext) => ({ db: ctx.db, events: ctx.events, effects: ctx.effects, actor: ctx.actor });

/** The board tools: the same domain functions and presenters as the /api routes. */
export const boardTools = [
  tool({
    name: 'list_boards',
    title: 'List boards',
    description: 'Your boards (as GET /api/boards): id, name, description, your role. archived=true lists only archived boards.',
    access: 'read',
    input: { archived: z.boolean({ message: 'must be true or false' }).default(false).describe('true: only archived boards.') },
    async run(ctx, { archived }) {
      const rows = await listBoards({ db: ctx.db, actor: ctx.actor, archived });
      return { boards: rows.map(({ board: b, role }) => presentBoard(b, role)) };
    },
  }),
  tool({
    name: 'get_board',
    title: 'Fetch a board',
    description: 'The whole board (as GET /api/boards/{id}): its lists with their cards in order, labels, custom fields and members.',
    access: 'read',
    input: { boardId: id('Board') },
    async run(ctx, { boardId }) {
      return JSON.parse((await getBoardJson({ db: ctx.db, actor: ctx.actor, boardId, cache: ctx.boardCache })).json) as object;
    },
  }),
  tool({
    name: 'search_cards',
    title: 'Search cards',
    description:
      'Full-text search of cards (titles, descriptions, checklist items, comments), best first: on one board when boardId is given, else on every board you reach. ' +
      'Pass nextCursor back as cursor for the next page (all boards only).',
    access: 'read',
    input: {
      q: s.searchQuery,
      boardId: id('Board').optional().describe('Search only this board.'),
      archived: z.boolean({ message: 'must be true or false' }).default(false).describe('true: archived cards too.'),
      limit: limit(20, 100),
      cursor: s.cursorQuery(decodeSearchCursor),
    },
    async run(ctx, { q, boardId, archived, limit: size, cursor }) {
      if (boardId !== undefined) return { cards: await searchCards({ db: ctx.db, actor: ctx.actor, boardId, q, limit: size, archived }), nextCursor: null };
      return searchAllBoards({ db: ctx.db, actor: ctx.actor, q, limit: size, archived, cursor });
    },
  }),
  tool({
    name: 'list_my_cards',
    title: 'Cards assigned to me',
    description: 'Cards assigned to you on active boards (as GET /api/cards?member=me), soonest due first; dueBefore is exclusive.',
    access: 'read',
    input: { dueBefore: s.dueBeforeQuery, limit: limit(50, 100), cursor: s.cursorQuery(decodeDueCursor) },
    async run(ctx, args) {
      return listAssignedCards({ db: ctx.db, actor: ctx.actor, ...args });
    },
  }),
  tool({
    name: 'get_card',
    title: 'Fetch a card',
    description: 'The full card (as GET /api/cards/{id}): summary, checklists with items, the latest comments, attachments.',
    access: 'read',
    input: { cardId: id('Card') },
    async run(ctx, { cardId }) {
      return getCard({ db: ctx.db, actor: ctx.actor, cardId });
    },
  }),
  tool({
    name: 'list_activity',
    title: 'Board activity',
    description: "The board's activity, newest first (as GET /api/boards/{id}/activity); pass nextBefore as before for older entries.",
    access: 'read',
    input: { boardId: id('Board'), limit: limit(50, 200), before: id('Activity').optional().describe('Only entries older than this id (nextBefore).') },
    async run(ctx, args) {
      return listActivity({ db: ctx.db, actor: ctx.actor, ...args });
    },
  }),
  tool({
    name: 'create_card',
    title: 'Create a card',
    description:
      'A new card in a list (as POST /api/lists/{id}/cards), at position (default the end), with its due date, labels, assignees and custom-field values. Admins and members of the board.',
    access: 'write',
    input: { listId: id('List'), ...s.newCardInput },
    async run(ctx, { listId, ...fields }) {
      return createCard({ ...board(ctx), listId, ...fields });
    },
  }),
  tool({
    name: 'update_card',
    title: 'Edit a card',
    description: 'Change a card’s title, description or due date, or archive (true) / restore (false) it (as PATCH /api/cards/{id}). version: apply only if unchanged since.',
    access: 'write',
    idempotent: true,
    input: {
      cardId: id('Card'),
      title: s.cardTitle.optional(),
      description: s.description.optional(),
      dueAt: s.dueAtInput.optional(),
      archived: z.boolean({ message: 'must be true or false' }).optional(),
      version: s.version.optional(),
    },
    async run(ctx, { cardId, version, ...changes }) {
      return updateCard({ ...board(ctx), cardId, changes, expectedVersion: version });
    },
  }),
  tool({
    name: 'move_card',
    title: 'Move a card',
    description: 'Move a card to position of a list, on its board or another you may write to (as POST /api/cards/{id}/move); position omitted = the end.',
    access: 'write',
    idempotent: true,
    input: { cardId: id('Card'), listId: s.listIdInBody, position: s.position.optional(), version: s.version.optional() },
    async run(ctx, { cardId, listId, position, version }) {
      return moveCard({ ...board(ctx), cardId, listId, position, expectedVersion: version });
    },
  }),
  tool({
    name: 'add_comment',
    title: 'Comment on a card',
    description: 'Add a comment to a card as you (as POST /api/cards/{id}/comments). Any role, observers too.',
    access: 'write',
    input: { cardId: id('Card'), text: s.commentText },
    async run(ctx, { cardId, text }) {
      return createComment({ ...board(ctx), cardId, text });
    },
  }),
  tool({
    name: 'create_checklist',
    title: 'Add a checklist to a card',
    description: 'A new, empty checklist on a card (as POST /api/cards/{id}/checklists).',
    access: 'write',
    input: { cardId: id('Card'), name: s.checklistName },
    async run(ctx, { cardId, name }) {
      return createChecklist({ ...board(ctx), cardId, name });
    },
  }),
  tool({
    name: 'add_checklist_item',
    title: 'Add a checklist item',
    description: 'A new item at the end of a checklist (as POST /api/checklists/{id}/items). Checklist ids are in get_card.',
    access: 'write',
    input: { checklistId: id('Checklist'), name: s.itemName, checked: s.checked.optional() },
    async run(ctx, { checklistId, name, checked }) {
      return createItem({ ...board(ctx), checklistId, name, checked });
    },
  }),
];
