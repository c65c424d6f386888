import { describe, expect, it } from 'vitest';
import { FULL_CARD_CALL } from '../../../src/boards/json/card-json.js';
import { rolesAllowing } from '../../../src/boards/policy.js';
import { BOARD_TEST_ENV, cardIdsOfList, makeTeam } from '../../board-factories.js';
import { useTestApp } from '../../helper.js';

/**
 * How a move is stored: the cards it shifts are updated in place (HOT updates), so steady moves do
 * not add a row version to every index of "Card" per shifted card (migration card_moves_hot).
 */
const t = useTestApp(BOARD_TEST_ENV);

describe('a card move in storage', () => {
  it('shifts the other cards of the list without touching an index (HOT updates)', async () => {
    const team = await makeTeam(t, { cards: 12 });
    const [first, ...rest] = team.cards;
    const actor = JSON.stringify({ actorUserId: team.admin.id, actorKeyId: null, actorName: 'test', actorClient: null });
    // The statement the API runs (move-card.ts), in a transaction whose own counters PostgreSQL keeps.
    const hot = await t.db.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ outcome: { card?: { position: number } } }[]>`
        SELECT tb_move_card(${first!.id}::int, ${team.list.id}::int, NULL::int, NULL::int, ${team.admin.id}::int, NULL::int[],
          ${rolesAllowing('card.write')}::text[], true, ${actor}::jsonb, ${FULL_CARD_CALL}::text, NULL::text[], true) AS outcome`;
      expect(row?.outcome.card?.position).toBe(11);
      const [counted] = await tx.$queryRaw<{ n: bigint }[]>`SELECT pg_stat_get_xact_tuples_hot_updated('"Card"'::regclass) AS n`;
      return Number(counted?.n);
    });
    // The 11 cards after it each moved up one, in place; the moved card too (its list is the same).
    expect(hot).toBeGreaterThanOrEqual(11);
    expect(await cardIdsOfList(team.as.admin, team.board.id, team.list.id)).toEqual([...rest.map((c) => c.id), first!.id]);
  });
});
