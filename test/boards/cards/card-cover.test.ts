import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BOARD_TEST_ENV, expectCardResponse, expectError, expectFieldError, fetchBoard, lastActivity, makeAttachment, makeCard, makeTeam } from '../../board-factories.js';
import { png } from '../pictures.js';
import { useTestApp } from '../../helper.js';

/** A card's cover (#35 item 5): one of its own image attachments, shown on its tile. */
const t = useTestApp(() => BOARD_TEST_ENV);

// A 64 × 64 PNG's headers, then random bytes (each picture's size is read from its header: random ones were any size).
const PNG = Buffer.concat([png(64, 64), randomBytes(64)]);

describe('card cover', () => {
  it('sets, reports, refuses what is not its own picture, and goes with the attachment', async () => {
    const team = await makeTeam(t, { cards: 2 });
    const [card, other] = team.cards;
    const picture = await makeAttachment(t.app, team.keys.member.auth, card.id, 'shot.png', PNG);
    expect(picture.mimeType).toBe('image/png');
    const text = await makeAttachment(t.app, team.keys.member.auth, card.id, 'notes.txt', 'plain words');
    const elsewhere = await makeAttachment(t.app, team.keys.member.auth, other.id, 'other.png', PNG);

    expect((await team.as.member.get(`/api/cards/${card.id}`)).json().coverAttachmentId).toBeNull();
    const set = expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: picture.id }), 200);
    expect(set.coverAttachmentId).toBe(picture.id);
    expect(set.version).toBe(card.version + 3); // two uploads, then the cover
    expect(await lastActivity(team.as.admin, team.board.id)).toMatchObject({ type: 'card.updated', data: { cardId: card.id, card: { coverAttachmentId: picture.id } } });
    // The board fetch (built by PostgreSQL) carries it too.
    const board = await fetchBoard(team.as.observer, team.board.id);
    expect(board.lists[0].cards.find((c: { id: number }) => c.id === card.id).coverAttachmentId).toBe(picture.id);

    // Setting it again changes nothing.
    expect(expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: picture.id }), 200).version).toBe(set.version);

    expectError(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: text.id }), 400, /^attachmentId: not a picture \(text\/plain\)/);
    expectError(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: elsewhere.id }), 400, /^attachmentId: not an attachment of this card/);
    expectError(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: 2_000_000 }), 400, /^attachmentId: /);
    expectFieldError(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: 'x' }), 'attachmentId');
    expectFieldError(await team.as.member.put(`/api/cards/${card.id}/cover`, {}), 'attachmentId');
    expectError(await team.as.observer.put(`/api/cards/${card.id}/cover`, { attachmentId: picture.id }), 403);
    expectError(await team.as.stranger.put(`/api/cards/${card.id}/cover`, { attachmentId: picture.id }), 404);
    expectError(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: picture.id }, { 'if-match': '"1"' }), 409);

    // Removing: idempotent; the attachment stays.
    const removed = expectCardResponse(await team.as.member.del(`/api/cards/${card.id}/cover`), 200);
    expect(removed.coverAttachmentId).toBeNull();
    expect(removed.attachments.map((a: { id: number }) => a.id)).toContain(picture.id);
    expect(expectCardResponse(await team.as.member.del(`/api/cards/${card.id}/cover`), 200).version).toBe(removed.version);

    // Deleting the cover's attachment takes the cover off.
    expectCardResponse(await team.as.member.put(`/api/cards/${card.id}/cover`, { attachmentId: picture.id }), 200);
    expect((await team.as.member.del(`/api/attachments/${picture.id}`)).statusCode).toBe(204);
    expect((await team.as.member.get(`/api/cards/${card.id}`)).json().coverAttachmentId).toBeNull();
  });

  it('a new card has no cover', async () => {
    const team = await makeTeam(t);
    const card = await makeCard(team.as.admin, team.list.id, 'Fresh');
    expect(card.coverAttachmentId).toBeNull();
  });
});
