import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_TYPES, activity as activitySchema } from '../../src/boards/activity/activity-types.js';
import { presentActivity } from '../../src/boards/activity/present-activity.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { launchBrowser, openTab, startWebApp, type WebApp } from './browser.js';

// Functions given to page.evaluate run in the page (no DOM types in the server's tsconfig).
declare const document: any;

/** Issue #24 on the board page: activity sentences, the card dialog's label and field forms, the activity panel, badges. */
let browser: Browser;
let web: WebApp;
let admin: Awaited<ReturnType<typeof makeUser>>;
let bob: Awaited<ReturnType<typeof makeUser>>;
let adminAuth: Record<string, string>;
beforeAll(async () => {
  [browser, web] = await Promise.all([launchBrowser(), startWebApp({ RATE_LIMIT_MAX: '100000' })]);
  admin = await makeUser(web.db, { name: 'Ada Admin' });
  bob = await makeUser(web.db, { name: 'Bob Builder' });
  adminAuth = (await makeKey(web.db, admin.id, { permission: 'write' })).auth;
});
afterAll(async () => {
  await browser?.close();
  await web?.close();
});

async function api(method: string, url: string, body?: unknown) {
  const res = await web.call(adminAuth, method, url, body);
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

async function attach(cardId: number, filename: string) {
  const form = new FormData();
  form.append('file', new Blob(['some notes']), filename);
  const res = await fetch(`${web.base}/api/cards/${cardId}/attachments`, { method: 'POST', headers: adminAuth, body: form });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number; filename: string };
}

async function openBoard(page: Page, boardId: number) {
  await page.goto(`/boards/${boardId}`);
  await page.locator('[data-live="live"]').waitFor();
  await page.locator('.list[data-list-id]').first().waitFor();
}

describe('the activity feed', () => {
  it('reads every activity type of the API as a sentence saying what changed, and marks changes made with a key or through an assistant', async () => {
    const board = await makeBoard(web.db, admin.id, [{ userId: bob.id, role: 'member' }], 'Launch plan');
    const todo = await api('POST', `/api/boards/${board.id}/lists`, { name: 'To do' });
    const done = await api('POST', `/api/boards/${board.id}/lists`, { name: 'Done' });
    const card = await api('POST', `/api/lists/${todo.id}/cards`, { title: 'Fix login bug' });
    const label = await api('POST', `/api/boards/${board.id}/labels`, { name: 'Bug', color: 'red' });
    const field = await api('POST', `/api/boards/${board.id}/custom-fields`, { name: 'Estimate', type: 'number' });
    const checklist = await api('POST', `/api/cards/${card.id}/checklists`, { name: 'Steps' });
    const item = await api('POST', `/api/checklists/${checklist.id}/items`, { name: 'Write a test' });
    const comment = await api('POST', `/api/cards/${card.id}/comments`, { text: 'Looks good to me' });
    const file = await attach(card.id, 'screenshot.png');
    const full = await api('GET', `/api/boards/${board.id}`);
    const summary = full.lists.find((l: { id: number }) => l.id === todo.id).cards[0];
    const { lists: _lists, labels: _labels, customFields: _fields, members, ...boardView } = full;
    const member = members.find((m: { userId: number }) => m.userId === bob.id);
    const listView = (l: { id: number }) => full.lists.find((x: { id: number }) => x.id === l.id);
    const onCard = { cardId: card.id };

    // One of each type, as the server records it (each checked against the API's Activity union below).
    const cases: Record<string, { data: object; sentence: string; actor?: 'key' | 'assistant' | 'bob' }> = {
      'board.created': { data: { boardId: board.id, board: boardView }, sentence: 'created the board “Launch plan”' },
      'board.updated': { data: { boardId: board.id, board: boardView, changes: { name: 'Launch plan', description: 'Q3' } }, sentence: 'renamed the board to “Launch plan” and changed the board’s description' },
      'board.deleted': { data: { boardId: board.id }, sentence: 'deleted the board' },
      'list.created': { data: { listId: todo.id, list: listView(todo) }, sentence: 'added the list “To do”' },
      'list.updated': { data: { listId: todo.id, list: listView(todo) }, sentence: 'updated the list “To do”' },
      'list.archived': { data: { listId: done.id, list: listView(done) }, sentence: 'archived the list “Done”' },
      'list.deleted': { data: { listId: 999, cards: 3 }, sentence: 'deleted a list with 3 cards' },
      'list.moved': { data: { listId: done.id, list: listView(done), from: { boardId: board.id, position: 1 }, to: { boardId: board.id, position: 0 } }, sentence: 'moved the list “Done” from position 2 to 1' },
      'card.created': { data: { cardId: card.id, listId: todo.id, card: summary }, sentence: 'added the card “Fix login bug” to To do' },
      'card.updated': { data: { cardId: card.id, listId: todo.id, card: summary }, sentence: 'updated the card “Fix login bug”' },
      'card.archived': { data: { cardId: card.id, listId: todo.id, card: summary }, sentence: 'archived the card “Fix login bug”' },
      'card.moved': { data: { cardId: card.id, listId: done.id, card: summary, from: { listId: todo.id, position: 0 }, to: { listId: done.id, position: 0 } }, sentence: 'moved the card “Fix login bug” from To do to Done', actor: 'assistant' },
      'card.copied': { data: { cardId: card.id, sourceCardId: card.id, listId: todo.id, card: summary }, sentence: 'copied a card as “Fix login bug”' },
      'card.deleted': { data: { cardId: card.id, listId: todo.id }, sentence: 'deleted a card from To do' },
      'card.label_added': { data: { ...onCard, labelId: label.id, card: summary }, sentence: 'added the label “Bug” to “Fix login bug”' },
      'card.label_removed': { data: { ...onCard, labelId: label.id, card: summary }, sentence: 'removed the label “Bug” from “Fix login bug”' },
      'card.member_added': { data: { ...onCard, userId: bob.id, card: summary }, sentence: 'assigned Bob Builder to “Fix login bug”' },
      'card.member_removed': { data: { ...onCard, userId: bob.id, card: summary }, sentence: 'unassigned Bob Builder from “Fix login bug”' },
      'card.field_set': { data: { ...onCard, fieldId: field.id, value: 3, card: summary }, sentence: 'set “Estimate” to “3” on “Fix login bug”', actor: 'key' },
      'checklist.created': { data: { ...onCard, checklistId: checklist.id, checklist, card: summary }, sentence: 'added the checklist “Steps” to “Fix login bug”' },
      'checklist.updated': { data: { ...onCard, checklistId: checklist.id, checklist, card: summary }, sentence: 'renamed a checklist to “Steps” on “Fix login bug”' },
      'checklist.deleted': { data: { ...onCard, checklistId: checklist.id, card: summary }, sentence: 'deleted a checklist from “Fix login bug”' },
      'item.created': { data: { ...onCard, checklistId: checklist.id, itemId: item.id, item, card: summary }, sentence: 'added “Write a test” to a checklist on “Fix login bug”' },
      'item.updated': { data: { ...onCard, checklistId: checklist.id, itemId: item.id, item: { ...item, checked: true }, card: summary }, sentence: 'completed “Write a test” on “Fix login bug”' },
      'item.deleted': { data: { ...onCard, checklistId: checklist.id, itemId: item.id, card: summary }, sentence: 'deleted a checklist item from “Fix login bug”' },
      'item.converted': { data: { cardId: card.id, checklistId: checklist.id, itemId: item.id, newCardId: card.id, card: summary }, sentence: 'turned a checklist item of “Fix login bug” into a card' },
      'comment.created': { data: { ...onCard, commentId: comment.id, comment, card: summary }, sentence: 'commented on “Fix login bug”: “Looks good to me”' },
      'comment.updated': { data: { ...onCard, commentId: comment.id, comment, previousText: 'Looks good', card: summary }, sentence: 'edited a comment on “Fix login bug” (it said “Looks good”)' },
      'comment.deleted': { data: { ...onCard, commentId: comment.id, card: summary }, sentence: 'deleted a comment on “Fix login bug”' },
      'attachment.created': { data: { ...onCard, attachmentId: file.id, attachment: file, card: summary }, sentence: 'attached “screenshot.png” to “Fix login bug”' },
      'attachment.deleted': { data: { ...onCard, attachmentId: file.id, card: summary }, sentence: 'deleted an attachment from “Fix login bug”' },
      'label.created': { data: { labelId: label.id, label }, sentence: 'created the label “Bug”' },
      'label.updated': { data: { labelId: label.id, label }, sentence: 'updated the label “Bug”' },
      'label.deleted': { data: { labelId: label.id, label, cardIds: [card.id] }, sentence: 'deleted the label “Bug” (it was on 1 card)' },
      'custom_field.created': { data: { fieldId: field.id, customField: field }, sentence: 'added the custom field “Estimate” (number)' },
      'custom_field.updated': { data: { fieldId: field.id, customField: field, clearedCardIds: [card.id, card.id + 1], convertedCardIds: [] }, sentence: 'changed the custom field “Estimate” (cleared on 2 cards)' },
      'custom_field.deleted': { data: { fieldId: field.id, customField: field, cardIds: [] }, sentence: 'deleted the custom field “Estimate”' },
      'member.added': { data: { userId: bob.id, member }, sentence: 'added Bob Builder to the board as a member' },
      'member.invited': { data: { email: 'carol@example.com', role: 'observer' }, sentence: 'invited carol@example.com to the board as an observer' },
      'member.updated': { data: { userId: bob.id, member, from: { role: 'observer' } }, sentence: 'changed Bob Builder’s role from observer to member' },
      'member.removed': { data: { userId: bob.id, member, unassignedCardIds: [] }, sentence: 'left the board', actor: 'bob' },
      'invitation.revoked': { data: { email: 'carol@example.com', role: 'observer' }, sentence: 'revoked the invitation of carol@example.com' },
      'invitation.updated': { data: { email: 'carol@example.com', role: 'admin' }, sentence: 'renewed the invitation of carol@example.com, now as an admin' },
    };
    expect(Object.keys(cases).sort(), 'a case for every activity type of the API').toEqual([...ACTIVITY_TYPES].sort());

    const keyId = (await web.db.prisma.apiKey.findFirstOrThrow({ where: { userId: admin.id } })).id;
    const ids = new Map<number, string>();
    for (const [type, { data, actor }] of Object.entries(cases)) {
      const who =
        actor === 'bob'
          ? { actorUserId: bob.id, actorName: bob.name, actorKeyId: null, actorClient: null }
          : { actorUserId: admin.id, actorName: admin.name, actorKeyId: actor === 'key' ? keyId : null, actorClient: actor === 'assistant' ? 'Claude' : null };
      const row = await web.db.prisma.activity.create({ data: { boardId: board.id, type, data, ...who } });
      expect(activitySchema.safeParse(presentActivity(row)).error, `${type}: the fixture is an Activity as the API sends it`).toBeUndefined();
      ids.set(row.id, type);
    }

    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    await page.getByRole('button', { name: 'Activity' }).click();
    const panel = page.getByRole('complementary', { name: 'Activity' });
    await panel.locator(`li[data-id="${[...ids.keys()].at(-1)}"]`).waitFor();
    const shown = new Map<number, string>(
      await page.evaluate(() =>
        [...document.querySelectorAll('.activity li[data-id]')].map((li: any) => [Number(li.dataset.id), li.querySelector('.sentence').textContent.replace(/\s+/g, ' ').trim()]),
      ),
    );
    for (const [id, type] of ids) {
      const { sentence, actor } = cases[type]!;
      const who = actor === 'bob' ? 'Bob Builder' : 'Ada Admin';
      const channel = actor === 'assistant' ? ' (via Claude)' : actor === 'key' ? ' (with an API key)' : '';
      expect(shown.get(id), type).toBe(`${who} ${sentence}${channel}`);
    }
    await tab.close();
  });
});

describe('the card dialog', () => {
  it('puts a label created in the dialog on that card, and starts the next custom field afresh', async () => {
    const board = await makeBoard(web.db, admin.id, [], 'Dialog board');
    const list = await api('POST', `/api/boards/${board.id}/lists`, { name: 'Inbox' });
    const card = await api('POST', `/api/lists/${list.id}/cards`, { title: 'Label me' });
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    await page.locator(`li.card[data-card-id="${card.id}"] .card-open`).click();
    const dialog = page.getByRole('dialog', { name: 'Label me' });
    await dialog.getByRole('button', { name: 'Edit labels' }).click();
    const newLabel = dialog.locator('details').filter({ hasText: 'Create label' });
    await newLabel.getByText('New label').click();
    await newLabel.getByLabel('Name').fill('Urgent');
    await newLabel.getByRole('radio', { name: 'Red', exact: true }).click();
    await newLabel.getByRole('button', { name: 'Create label' }).click();
    // Applied to this card at once, in the dialog, on the board, and on the server.
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Urgent' }).isChecked()).toBe(true);
    await page.locator(`li.card[data-card-id="${card.id}"]`).getByText('Urgent').waitFor();
    const label = (await api('GET', `/api/boards/${board.id}`)).labels.find((l: { name: string }) => l.name === 'Urgent');
    expect((await api('GET', `/api/cards/${card.id}`)).labelIds).toEqual([label.id]);

    // A list field with its choices, then the form is a fresh one: text, no choices.
    const newField = dialog.locator('details').filter({ hasText: 'Add field' });
    await newField.getByText('New field').click();
    await newField.getByLabel('Name').fill('Priority');
    await newField.getByLabel('Type').selectOption('list');
    await newField.getByLabel(/^Choices/).fill('Low, High');
    await newField.getByRole('button', { name: 'Add field' }).click();
    await dialog.getByRole('combobox', { name: 'Priority' }).waitFor();
    // The live event can show the field before the POST's answer resets the form; used, it closes (#35).
    await expect.poll(() => newField.getByLabel('Name').inputValue()).toBe('');
    await expect.poll(() => newField.evaluate((d: { open: boolean }) => d.open)).toBe(false);
    await newField.getByText('New field').click();
    expect(await newField.getByLabel('Type').inputValue()).toBe('text');
    expect(await newField.getByLabel(/^Choices/).count()).toBe(0);
    await newField.getByLabel('Type').selectOption('list');
    expect(await newField.getByLabel(/^Choices/).inputValue()).toBe('');
    await tab.close();
  });
});

describe('the board page', () => {
  it('closes the activity panel with Escape and keeps the "New list" column beside it, not under it', async () => {
    const board = await makeBoard(web.db, admin.id, [], 'Narrow board');
    for (const name of ['One', 'Two']) await api('POST', `/api/boards/${board.id}/lists`, { name });
    const tab = await openTab(browser, web, { user: admin, viewport: { width: 1024, height: 768 } });
    const { page } = tab;
    await openBoard(page, board.id);
    await page.getByRole('button', { name: 'Activity' }).click();
    const panel = page.getByRole('complementary', { name: 'Activity' });
    await panel.waitFor();
    const newList = page.getByRole('region', { name: 'Add a list' });
    await expect
      .poll(async () => {
        const [a, p] = await Promise.all([newList.boundingBox(), panel.boundingBox()]);
        return a!.x >= 0 && a!.x + a!.width <= p!.x;
      })
      .toBe(true);
    await page.getByLabel('New list').fill('Three');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    // The focus goes back to the button that opened it.
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Activity');
    await tab.close();
  });

  it('draws the attachment badge like the comment badge and says "1 comment", "1 attachment", "1 card"', async () => {
    const board = await makeBoard(web.db, admin.id, [], 'Badges');
    const list = await api('POST', `/api/boards/${board.id}/lists`, { name: 'Only' });
    const card = await api('POST', `/api/lists/${list.id}/cards`, { title: 'With things' });
    await api('POST', `/api/cards/${card.id}/comments`, { text: 'one' });
    await attach(card.id, 'notes.txt');
    const other = await api('POST', `/api/lists/${list.id}/cards`, { title: 'Busier' });
    for (const text of ['a', 'b']) await api('POST', `/api/cards/${other.id}/comments`, { text });
    for (const name of ['a.txt', 'b.txt']) await attach(other.id, name);
    const tab = await openTab(browser, web, { user: admin });
    const { page } = tab;
    await openBoard(page, board.id);
    const tile = page.locator(`li.card[data-card-id="${card.id}"]`);
    await tile.getByLabel('1 comment', { exact: true }).waitFor();
    const attachmentBadge = tile.getByLabel('1 attachment', { exact: true });
    await attachmentBadge.waitFor();
    // Drawn (an SVG, like the comment badge), not an emoji that needs a colour-emoji font.
    expect(await attachmentBadge.locator('svg').count()).toBe(1);
    expect((await attachmentBadge.textContent())!.trim()).toBe('1');
    const busier = page.locator(`li.card[data-card-id="${other.id}"]`);
    await busier.getByLabel('2 comments', { exact: true }).waitFor();
    await busier.getByLabel('2 attachments', { exact: true }).waitFor();
    await page.locator(`.list[data-list-id="${list.id}"] .count`).and(page.getByLabel('2 cards', { exact: true })).waitFor();
    expect(await page.evaluate(() => /📎|\b1 (comments|attachments|cards)\b/u.test(document.body.innerHTML))).toBe(false);
    await tab.close();
  });
});
