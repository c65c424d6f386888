import { describe, expect, it } from 'vitest';
import { client } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp, waitUntil } from '../helper.js';

const tag = () => Math.random().toString(36).slice(2, 8);

/**
 * An edited comment tells the people it newly mentions, and only them: a mention already in the
 * comment before the edit was told when it was written (or at an earlier edit).
 */
describe('mentions added by editing a comment', () => {
  const t = useTestApp({ RATE_LIMIT_MAX: '100000' });

  async function setUp() {
    await t.app.ready();
    const ada = await makeUser(t.db, { name: `Ada ${tag()}` });
    const [bob, cy, dan] = await Promise.all(['bob', 'cy', 'dan'].map((who) => makeUser(t.db, { name: `${who}${tag()} Test`, email: `${who}-${tag()}@example.test` })));
    const board = await makeBoard(t.db, ada!.id, [bob!, cy!, dan!].map((u) => ({ userId: u.id, role: 'member' as const })));
    const adaApi = client(t.app, (await makeKey(t.db, ada.id)).auth);
    const list = (await adaApi.post(`/api/boards/${board.id}/lists`, { name: 'To do' })).json();
    const card = (await adaApi.post(`/api/lists/${list.id}/cards`, { title: 'Edited comments' })).json();
    const at = (u: { email: string }) => `@${u.email.split('@')[0]}`;
    /** Each person's mention notifications once the notifier (this test's scans, or the app's own) has read the latest comment activity. */
    const mentions = async () => {
      const [latest] = await t.db.prisma.$queryRaw<{ id: number }[]>`SELECT max(id)::int AS id FROM "Activity" WHERE type IN ('comment.created', 'comment.updated')`;
      await waitUntil(async () => {
        await t.app.notifications.notifier.scan();
        const [row] = await t.db.prisma.$queryRaw<{ read: boolean }[]>`
          SELECT EXISTS (SELECT 1 FROM "NotifiedActivity" WHERE "activityId" = ${latest!.id})
              OR EXISTS (SELECT 1 FROM "NotifierCursor" WHERE "activityId" >= ${latest!.id}) AS read`;
        return row!.read;
      });
      const rows = await t.db.prisma.notification.findMany({ where: { cardId: card.id, kind: 'mentioned' }, select: { userId: true, text: true }, orderBy: { id: 'asc' } });
      return { bob: rows.filter((r) => r.userId === bob!.id), cy: rows.filter((r) => r.userId === cy!.id), dan: rows.filter((r) => r.userId === dan!.id) };
    };
    return { ada, bob: bob!, cy: cy!, dan: dan!, adaApi, card, at, mentions };
  }

  it('tells the newly mentioned only; an edit that keeps or drops a mention tells nobody again', async () => {
    const { bob, cy, dan, adaApi, card, at, mentions } = await setUp();
    const comment = (await adaApi.post(`/api/cards/${card.id}/comments`, { text: `${at(bob)} have a look` })).json();
    expect((await mentions()).bob).toHaveLength(1);

    expect((await adaApi.patch(`/api/comments/${comment.id}`, { text: `${at(bob)} and ${at(cy)}, have a look` })).statusCode).toBe(200);
    let now = await mentions();
    expect(now.bob).toHaveLength(1);
    expect(now.cy).toHaveLength(1);
    expect(now.cy[0]!.text).toContain(`mentioned you on “Edited comments”: “${at(bob)} and ${at(cy)}, have a look”`);

    // Against the text just before this edit (the latest version), not the first: Cy was mentioned by the last edit.
    expect((await adaApi.patch(`/api/comments/${comment.id}`, { text: `${at(cy)} only` })).statusCode).toBe(200);
    expect((await adaApi.patch(`/api/comments/${comment.id}`, { text: `${at(cy)} only, and ${at(dan)}` })).statusCode).toBe(200);
    now = await mentions();
    expect([now.bob.length, now.cy.length, now.dan.length]).toEqual([1, 1, 1]);

    // Bob, dropped by an edit and mentioned again by the next, is new to the text before that edit: told again.
    expect((await adaApi.patch(`/api/comments/${comment.id}`, { text: `${at(cy)} ${at(dan)} ${at(bob)}` })).statusCode).toBe(200);
    now = await mentions();
    expect([now.bob.length, now.cy.length, now.dan.length]).toEqual([2, 1, 1]);
  });

  it('without the text before the edit in the log (an imported comment, a card from another board): tells those never told of a mention on the card', async () => {
    const { bob, cy, dan, adaApi, card, at, mentions } = await setUp();
    const comment = (await adaApi.post(`/api/cards/${card.id}/comments`, { text: `${at(bob)} have a look` })).json();
    expect((await mentions()).bob).toHaveLength(1);
    // As if the comment had come without an activity of its own.
    await t.db.prisma.$executeRaw`DELETE FROM "Activity" WHERE type = 'comment.created' AND data->>'commentId' = ${String(comment.id)}`;

    expect((await adaApi.patch(`/api/comments/${comment.id}`, { text: `${at(bob)} ${at(cy)} have a look` })).statusCode).toBe(200);
    const now = await mentions();
    expect([now.bob.length, now.cy.length, now.dan.length]).toEqual([1, 1, 0]);
  });
});
