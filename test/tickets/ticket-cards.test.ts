import { describe, expect, it, vi } from 'vitest';
import { TEXT_LIMIT } from '../../src/boards/schemas.js';
import { runCommand } from '../../src/cli/run-command.js';
import { answerWorkspace } from '../answers/answer-fixtures.js';
import { loginCookie, makeBoard, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { countQueries } from '../query-count.js';

// Tickets as cards (issue 45, part 4). The webhook endpoint is never reached: the dispatcher is
// off, the outbox rows say what would be sent.
vi.setConfig({ hookTimeout: 300_000, testTimeout: 300_000 });
const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhookDispatcher: false });

const admin = (...argv: string[]) => runCommand(argv, { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });

/** A workspace with its token and a webhook, and a board its owner administers with lists Inbox and Solved. */
async function ticketBoard() {
  const w = await answerWorkspace(t);
  const W = String(w.workspaceId);
  const wst = (await admin('workspace', 'token', '--workspace', W)).body.token as string;
  await admin('webhook', 'create', '--workspace', W, '--url', 'http://127.0.0.1:9/hook');
  const board = await makeBoard(t.db, w.owner.id);
  const inbox = await t.db.prisma.list.create({ data: { boardId: board.id, name: 'Inbox', position: 0 } });
  const solved = await t.db.prisma.list.create({ data: { boardId: board.id, name: 'Solved', position: 1 } });
  const ownerCookie = await loginCookie(t.app, w.owner.email, w.owner.password);
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${wst}` }, ...(payload ? { payload } : {}) });
  const web = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = ownerCookie) =>
    t.app.inject({ method, url, headers: cookie, ...(payload ? { payload } : {}) });
  return { ...w, W, wst, board, inbox, solved, api, web };
}

type Setup = Awaited<ReturnType<typeof ticketBoard>>;

async function linked(w: Setup) {
  const set = await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: w.board.id, listId: w.inbox.id, solvedListId: w.solved.id });
  expect(set.statusCode, set.body).toBe(200);
  const created = await w.api('POST', '/v1/tickets', { subject: 'Printer on fire', description: 'It smokes.', priority: 'urgent', requester: { email: 'ana@customer.example' } });
  expect(created.statusCode, created.body).toBe(201);
  const ticket = created.json() as { id: number };
  const cardId = (await t.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticket.id } })).cardId!;
  return { ticketId: ticket.id, cardId };
}

const events = (workspaceId: number, type: string) => t.db.prisma.webhookEvent.findMany({ where: { workspaceId, type }, orderBy: { createdAt: 'asc' } });

describe('tickets as cards: the workspace\'s target board', () => {
  it('is set, read and unset from the console; a new ticket goes nowhere once unset', async () => {
    const w = await ticketBoard();
    expect((await w.web('GET', `/agent/workspaces/${w.W}/tickets-board`)).json()).toEqual({ boardId: null, listId: null, solvedListId: null });
    const set = await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: w.board.id, listId: w.inbox.id, solvedListId: w.solved.id });
    expect(set.json()).toEqual({ boardId: w.board.id, listId: w.inbox.id, solvedListId: w.solved.id });
    expect((await w.web('GET', `/agent/workspaces/${w.W}/tickets-board`)).json()).toEqual({ boardId: w.board.id, listId: w.inbox.id, solvedListId: w.solved.id });
    expect((await w.web('DELETE', `/agent/workspaces/${w.W}/tickets-board`)).json()).toEqual({ boardId: null, listId: null, solvedListId: null });
    const created = (await w.api('POST', '/v1/tickets', { subject: 'Nowhere', requester: { email: 'a@b.example' } })).json();
    expect((await t.db.prisma.ticket.findUniqueOrThrow({ where: { id: created.id } })).cardId).toBeNull();
    expect(await t.db.prisma.card.count({ where: { boardId: w.board.id } })).toBe(0);
  });

  it('refuses a board the team cannot write (422), a list of another board (400), a board the person cannot see (404)', async () => {
    const w = await ticketBoard();
    const stranger = await makeUser(t.db);
    // A board where the workspace's only member is an observer: nobody of the team can write it.
    const watched = await makeBoard(t.db, stranger.id, [{ userId: w.owner.id, role: 'observer' }]);
    const watchedList = await t.db.prisma.list.create({ data: { boardId: watched.id, name: 'L', position: 0 } });
    const refused = await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: watched.id, listId: watchedList.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: expect.stringMatching(/^boardId: no member of this workspace can write board/) });
    const otherList = await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: w.board.id, listId: watchedList.id });
    expect(otherList.statusCode).toBe(400);
    expect(otherList.json().error).toMatch(/^listId: no list \d+ on board/);
    const hidden = await makeBoard(t.db, stranger.id);
    const hiddenList = await t.db.prisma.list.create({ data: { boardId: hidden.id, name: 'L', position: 0 } });
    expect((await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: hidden.id, listId: hiddenList.id })).statusCode).toBe(404);
    expect((await w.web('GET', `/agent/workspaces/${w.W}/tickets-board`)).json().boardId).toBeNull();
  });

  it('is set and unset from the shell: workspace set --tickets-board/--tickets-list/--solved-list, and refused when the team cannot write', async () => {
    const w = await ticketBoard();
    const set = await admin('workspace', 'set', '--workspace', w.W, '--tickets-board', String(w.board.id), '--tickets-list', String(w.inbox.id), '--solved-list', String(w.solved.id));
    expect(set).toEqual({ exitCode: 0, body: { id: w.workspaceId, ticketsBoard: { boardId: w.board.id, listId: w.inbox.id, solvedListId: w.solved.id } } });
    const created = (await w.api('POST', '/v1/tickets', { subject: 'From the shell', requester: { email: 'a@b.example' } })).json();
    expect((await t.db.prisma.ticket.findUniqueOrThrow({ where: { id: created.id }, include: { card: true } })).card).toMatchObject({ listId: w.inbox.id, title: 'From the shell' });
    expect(await admin('workspace', 'set', '--workspace', w.W, '--tickets-board', 'none')).toEqual({ exitCode: 0, body: { id: w.workspaceId, ticketsBoard: { boardId: null, listId: null, solvedListId: null } } });
    const stranger = await makeUser(t.db);
    const theirs = await makeBoard(t.db, stranger.id);
    const theirList = await t.db.prisma.list.create({ data: { boardId: theirs.id, name: 'L', position: 0 } });
    const refused = await admin('workspace', 'set', '--workspace', w.W, '--tickets-board', String(theirs.id), '--tickets-list', String(theirList.id));
    expect(refused.exitCode).toBe(1);
    expect(refused.body.error).toMatch(/^boardId: no member of this workspace can write board/);
    expect((await admin('workspace', 'set', '--workspace', w.W, '--tickets-board', String(w.board.id))).body.error).toMatch(/--tickets-list/);
  });
});

describe('tickets as cards: both ways', () => {
  it('a new ticket becomes a card: subject, conversation with a link, priority label; board members see it (and its ticket)', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    const card = (await w.web('GET', `/api/cards/${cardId}`)).json();
    const urgent = await t.db.prisma.label.findFirstOrThrow({ where: { boardId: w.board.id, name: 'Urgent' } });
    expect(urgent.color).toBe('red');
    expect(card).toMatchObject({ listId: w.inbox.id, title: 'Printer on fire', labelIds: [urgent.id] });
    expect(card.description).toContain('**Requester:** ana@customer.example');
    expect(card.description).toContain(`(/support/${w.W}/tickets/${ticketId})`);
    expect(card.description).toContain('It smokes.');
    const activity = await t.db.prisma.activity.findFirstOrThrow({ where: { boardId: w.board.id, type: 'card.created' } });
    expect(activity.actorClient).toBe('tickets');
    expect((await w.web('GET', `/api/cards/${cardId}/ticket`)).json()).toEqual({ ticket: expect.objectContaining({ id: ticketId, requester: { email: 'ana@customer.example' }, status: 'open' }) });
    const plain = (await w.web('POST', `/api/lists/${w.inbox.id}/cards`, { title: 'Not a ticket' })).json();
    expect((await w.web('GET', `/api/cards/${plain.id}/ticket`)).json()).toEqual({ ticket: null });
    // Someone who is not on the board does not see the card, nor its ticket.
    const outsider = await makeUser(t.db);
    const cookie = await loginCookie(t.app, outsider.email, outsider.password);
    expect((await w.web('GET', `/api/cards/${cardId}/ticket`, undefined, cookie)).statusCode).toBe(404);
  });

  it('moving the card to the solved list solves the ticket (ticket.updated); moving it back opens it again', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    const moved = await w.web('POST', `/api/cards/${cardId}/move`, { listId: w.solved.id });
    expect(moved.statusCode, moved.body).toBe(200);
    await expect.poll(async () => (await w.api('GET', `/v1/tickets/${ticketId}`)).json().status, { timeout: 30_000 }).toBe('solved');
    const updated = await events(w.workspaceId, 'ticket.updated');
    expect(updated).toHaveLength(1);
    expect(JSON.parse(updated[0]!.body)).toMatchObject({ type: 'ticket.updated', data: { id: ticketId, status: 'solved', previous: { status: 'open' } } });
    expect((await w.web('POST', `/api/cards/${cardId}/move`, { listId: w.inbox.id })).statusCode).toBe(200);
    await expect.poll(async () => (await w.api('GET', `/v1/tickets/${ticketId}`)).json().status, { timeout: 30_000 }).toBe('open');
    // Within a list: nothing happens to the ticket.
    expect((await w.web('POST', `/api/cards/${cardId}/move`, { listId: w.inbox.id, position: 0 })).statusCode).toBe(200);
    expect(await events(w.workspaceId, 'ticket.updated')).toHaveLength(2);
  });

  it('a card moved between lists of a board without tickets costs no ticket lookup', async () => {
    const w = await ticketBoard();
    await linked(w); // some workspace solves tickets in a list: the lists that do are read on the first move below
    const plain = await makeBoard(t.db, w.owner.id);
    const [a, b] = await Promise.all(['A', 'B'].map((name, position) => t.db.prisma.list.create({ data: { boardId: plain.id, name, position } })));
    const card = await w.web('POST', `/api/lists/${a!.id}/cards`, { title: 'Plain' });
    const move = async (listId: number) => expect((await w.web('POST', `/api/cards/${card.json().id}/move`, { listId })).statusCode).toBe(200);
    await move(b!.id);
    await new Promise((r) => setTimeout(r, 100));
    const lookups = await countQueries(t.db, /"Ticket"/);
    try {
      for (let i = 0; i < 6; i++) await move(i % 2 ? b!.id : a!.id);
      await new Promise((r) => setTimeout(r, 200)); // the follow-ups run after the responses
      expect(lookups.count).toBe(0);
    } finally {
      lookups.stop();
    }
  });

  it('a solved list set after cards have moved is known at once (the process reads which lists solve tickets once, and forgets them on a change)', async () => {
    const w = await ticketBoard();
    const doing = await t.db.prisma.list.create({ data: { boardId: w.board.id, name: 'Doing', position: 2 } });
    expect((await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: w.board.id, listId: w.inbox.id })).statusCode).toBe(200);
    const created = await w.api('POST', '/v1/tickets', { subject: 'Late parcel', requester: { email: 'ana@customer.example' } });
    const ticketId = created.json().id as number;
    const cardId = (await t.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).cardId!;
    // A move between lists while no list solves this workspace's tickets: the lists are read now.
    expect((await w.web('POST', `/api/cards/${cardId}/move`, { listId: doing.id })).statusCode).toBe(200);
    expect((await w.web('POST', `/api/cards/${cardId}/move`, { listId: w.inbox.id })).statusCode).toBe(200);
    // Set from the shell (the server's own effects), then the card moved to it: the ticket is solved.
    const set = await admin('workspace', 'set', '--workspace', w.W, '--tickets-board', String(w.board.id), '--tickets-list', String(w.inbox.id), '--solved-list', String(w.solved.id));
    expect(set.exitCode, JSON.stringify(set.body)).toBe(0);
    expect((await w.web('POST', `/api/cards/${cardId}/move`, { listId: w.solved.id })).statusCode).toBe(200);
    await expect.poll(async () => (await w.api('GET', `/v1/tickets/${ticketId}`)).json().status, { timeout: 30_000 }).toBe('solved');
    // Unset from the console: a move out of the old solved list no longer concerns the ticket.
    expect((await w.web('DELETE', `/agent/workspaces/${w.W}/tickets-board`)).statusCode).toBe(200);
    expect((await w.web('POST', `/api/cards/${cardId}/move`, { listId: w.inbox.id })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await w.api('GET', `/v1/tickets/${ticketId}`)).json().status).toBe('solved');
  });

  it('a ticket solved through the API moves its card to the solved list; opened again, it comes back; its priority is its label', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    expect((await w.api('PATCH', `/v1/tickets/${ticketId}`, { status: 'solved' })).json().status).toBe('solved');
    expect((await t.db.prisma.card.findUniqueOrThrow({ where: { id: cardId } })).listId).toBe(w.solved.id);
    expect((await w.web('PATCH', `/agent/workspaces/${w.W}/tickets/${ticketId}`, { status: 'open' })).json().status).toBe('open');
    expect((await t.db.prisma.card.findUniqueOrThrow({ where: { id: cardId } })).listId).toBe(w.inbox.id);
    // The card's own follow-up (its move) made no second change to the ticket.
    expect(await events(w.workspaceId, 'ticket.updated')).toHaveLength(2);
    // A new priority: the card wears its label instead of the old one.
    expect((await w.api('PATCH', `/v1/tickets/${ticketId}`, { priority: 'low' })).statusCode).toBe(200);
    const low = await t.db.prisma.label.findFirstOrThrow({ where: { boardId: w.board.id, name: 'Low priority' } });
    expect((await w.web('GET', `/api/cards/${cardId}`)).json().labelIds).toEqual([low.id]);
  });

  it('a reply on the card is a public ticket comment (ticket.comment_created) and a comment on the card; observers cannot reply', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    const reply = await w.web('POST', `/api/cards/${cardId}/ticket/replies`, { body: 'We are sending a new one.' });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json()).toMatchObject({ ticketId, body: 'We are sending a new one.', public: true, author: 'team' });
    expect((await w.api('GET', `/v1/tickets/${ticketId}/comments`)).json().comments).toEqual([expect.objectContaining({ body: 'We are sending a new one.', public: true, author: 'team' })]);
    expect(await events(w.workspaceId, 'ticket.comment_created')).toHaveLength(1);
    await expect.poll(async () => (await w.web('GET', `/api/cards/${cardId}/comments`)).json().comments, { timeout: 30_000 })
      .toEqual([expect.objectContaining({ author: { userId: w.owner.id, name: w.owner.name }, text: expect.stringContaining('We are sending a new one.') })]);

    const observer = await makeUser(t.db);
    await t.db.prisma.boardMember.create({ data: { boardId: w.board.id, userId: observer.id, role: 'observer' } });
    const cookie = await loginCookie(t.app, observer.email, observer.password);
    expect((await w.web('POST', `/api/cards/${cardId}/ticket/replies`, { body: 'hi' }, cookie)).statusCode).toBe(403);
    const plain = (await w.web('POST', `/api/lists/${w.inbox.id}/cards`, { title: 'Not a ticket' })).json();
    expect((await w.web('POST', `/api/cards/${plain.id}/ticket/replies`, { body: 'hi' })).statusCode).toBe(404);
    expect((await w.web('POST', `/api/cards/${cardId}/ticket/replies`, { body: '  ' })).statusCode).toBe(400);
  });

  it('replies from the console and the API appear on the card too (by the person who wrote one, else the team); an internal note does not', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    const colleague = await makeUser(t.db);
    await t.db.prisma.workspaceMember.create({ data: { workspaceId: w.workspaceId, userId: colleague.id, role: 'member' } });
    await t.db.prisma.boardMember.create({ data: { boardId: w.board.id, userId: colleague.id, role: 'member' } });
    const colleagueCookie = await loginCookie(t.app, colleague.email, colleague.password);
    const fromConsole = await w.web('POST', `/agent/workspaces/${w.W}/tickets/${ticketId}/comments`, { body: 'From the console.' }, colleagueCookie);
    expect(fromConsole.statusCode, fromConsole.body).toBe(201);
    expect((await w.api('POST', `/v1/tickets/${ticketId}/comments`, { body: 'From a script.' })).statusCode).toBe(201);
    expect((await w.api('POST', `/v1/tickets/${ticketId}/comments`, { body: 'Internal: check the warranty.', public: false })).statusCode).toBe(201);
    const cardComments = async () =>
      ((await w.web('GET', `/api/cards/${cardId}/comments`)).json().comments as { author: { userId: number | null }; text: string }[])
        .map((c) => ({ userId: c.author.userId, text: c.text })).sort((a, b) => a.text.localeCompare(b.text));
    await expect.poll(cardComments, { timeout: 30_000 }).toEqual([
      // A script's reply has no person: the team's writer (the workspace's owner) writes it.
      { userId: w.owner.id, text: '_Replied to the customer:_\n\nFrom a script.' },
      { userId: colleague.id, text: '_Replied to the customer:_\n\nFrom the console.' },
    ]);
    // Nothing more arrives later (the internal note stays off the card).
    await new Promise((r) => setTimeout(r, 500));
    expect(await cardComments()).toHaveLength(2);
  });

  it('a reply longer than a card comment holds is cut to TEXT_LIMIT, never through a surrogate pair', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    const prefix = '_Replied to the customer:_\n\n';
    // The emoji's two UTF-16 units straddle the limit: a plain slice would keep its first half alone.
    const kept = 'a'.repeat(TEXT_LIMIT - prefix.length - 1);
    expect((await w.api('POST', `/v1/tickets/${ticketId}/comments`, { body: `${kept}😀 and more` })).statusCode).toBe(201);
    const comments = async () => ((await w.web('GET', `/api/cards/${cardId}/comments`)).json().comments as { text: string }[])
      .map((c) => ({ length: c.text.length, end: c.text.slice(-2), whole: c.text === `${prefix}${kept}` }));
    await expect.poll(comments, { timeout: 30_000 }).toEqual([{ length: TEXT_LIMIT - 1, end: 'aa', whole: true }]);
  });

  /** A tickets board, a widget, and a visitor's conversation handed off to a person: its ticket and card. */
  async function handedOffInWidget() {
    const w = await ticketBoard();
    await w.web('PUT', `/agent/workspaces/${w.W}/tickets-board`, { boardId: w.board.id, listId: w.inbox.id, solvedListId: w.solved.id });
    const widgetId = (await admin('widget', 'create', '--agent', w.agentId, '--origin', 'https://shop.example.com')).body.id as string;
    const widget = (url: string, token?: string, payload?: object) =>
      t.app.inject({ method: 'POST', url: `/v1/widgets/${widgetId}${url}`, headers: { origin: 'https://shop.example.com', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: payload ?? {} });
    const visitor = (await widget('/visitors')).json().token as string;
    const conversationId = (await widget('/messages', visitor, { message: 'Can I talk to a human?' })).json().conversationId as string;
    const ticketId = (await widget('/handoff', visitor, { conversationId, email: 'ana@customer.example' })).json().ticketId as number;
    const cardId = (await t.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).cardId!;
    return { w, widget, visitor, conversationId, ticketId, cardId };
  }

  it('the customer\'s answer in the widget appears on the card, by the requester (a name without an account)', async () => {
    const { w, widget, visitor, conversationId, ticketId, cardId } = await handedOffInWidget();
    expect(cardId).toEqual(expect.any(Number));
    // The hand-off's card holds the conversation.
    expect((await w.web('GET', `/api/cards/${cardId}`)).json().description).toContain('**Customer:** Can I talk to a human?');

    // The owner watches the card; a colleague on the board is named by the customer.
    expect((await w.web('PUT', `/api/cards/${cardId}/watch`)).statusCode).toBe(200);
    const bob = await makeUser(t.db);
    await t.db.prisma.boardMember.create({ data: { boardId: w.board.id, userId: bob.id, role: 'member' } });
    const text = `It still smokes @${bob.email.split('@')[0]}`;
    expect((await widget('/messages', visitor, { message: text, conversationId })).statusCode).toBe(200);
    await expect.poll(async () => (await w.web('GET', `/api/cards/${cardId}/comments`)).json().comments, { timeout: 30_000 })
      .toEqual([expect.objectContaining({ author: { userId: null, name: 'ana@customer.example' }, text })]);
    // The watcher is told, by the requester's name (though the comment was written as the team's member);
    // a customer's @name mentions nobody.
    await expect.poll(() => t.db.prisma.notification.findMany({ where: { cardId }, select: { userId: true, kind: true, text: true } }), { timeout: 30_000 })
      .toEqual([{ userId: w.owner.id, kind: 'watched', text: expect.stringMatching(/^ana@customer\.example commented on /) }]);
    expect(await t.db.prisma.notification.count({ where: { userId: bob.id } })).toBe(0);
  });

  it('the customer\'s answer in the widget to a solved ticket opens it again, and its card comes back from the solved list', async () => {
    const { w, widget, visitor, conversationId, ticketId, cardId } = await handedOffInWidget();
    expect((await w.api('PATCH', `/v1/tickets/${ticketId}`, { status: 'solved' })).statusCode).toBe(200);
    expect((await t.db.prisma.card.findUniqueOrThrow({ where: { id: cardId } })).listId).toBe(w.solved.id);
    expect((await widget('/messages', visitor, { message: 'It smokes again.', conversationId })).statusCode).toBe(200);
    expect((await w.api('GET', `/v1/tickets/${ticketId}`)).json().status).toBe('open');
    await expect.poll(async () => (await t.db.prisma.card.findUniqueOrThrow({ where: { id: cardId } })).listId, { timeout: 30_000 }).toBe(w.inbox.id);
  });

  it('archiving or deleting the card never deletes the ticket', async () => {
    const w = await ticketBoard();
    const { ticketId, cardId } = await linked(w);
    expect((await w.web('PATCH', `/api/cards/${cardId}`, { archived: true })).statusCode).toBe(200);
    expect((await w.api('GET', `/v1/tickets/${ticketId}`)).statusCode).toBe(200);
    // A solved archived card stays where it is.
    expect((await w.api('PATCH', `/v1/tickets/${ticketId}`, { status: 'solved' })).statusCode).toBe(200);
    expect((await w.web('DELETE', `/api/cards/${cardId}`)).statusCode).toBe(204);
    const ticket = await w.api('GET', `/v1/tickets/${ticketId}`);
    expect(ticket.statusCode).toBe(200);
    expect(ticket.json()).toMatchObject({ id: ticketId, subject: 'Printer on fire', status: 'solved' });
    expect((await t.db.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).cardId).toBeNull();
    // Its comments still work without a card.
    expect((await w.api('POST', `/v1/tickets/${ticketId}/comments`, { body: 'Still here.' })).statusCode).toBe(201);
  });
});
