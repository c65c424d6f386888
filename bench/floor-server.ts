/**
 * The floor the board benchmark compares against: a bare Fastify app on `pg` with hand-written
 * SQL and no authentication, validation or activity. `GET /floor/boards/:id` builds the board
 * JSON (with labels, assignees, values and counts, by correlated subqueries) in one json_agg query; `POST /floor/cards/:id/move` is one transaction that locks the
 * lists, shifts positions and updates the card.
 * Usage (by bench/boards.ts): DATABASE_URL=… PORT=… npx tsx bench/floor-server.ts
 */
import Fastify from 'fastify';
import pg from 'pg';
import { BOARD_SQL } from './floor-sql.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify();

app.get<{ Params: { id: string } }>('/floor/boards/:id', async (req, reply) => {
  const { rows } = await pool.query(BOARD_SQL, [Number(req.params.id)]);
  return reply.type('application/json').send(JSON.stringify(rows[0].board));
});

app.post<{ Params: { id: string }; Body: { listId: number; position?: number } }>('/floor/cards/:id/move', async (req) => {
  const client = await pool.connect();
  try {
    const cardId = Number(req.params.id);
    // The card's list is read before it is locked: if another move changed it meanwhile, again.
    for (;;) {
    await client.query('BEGIN');
    const { rows: [card] } = await client.query('SELECT "listId" FROM "Card" WHERE id = $1', [cardId]);
    const lists = [card.listId, req.body.listId].sort((a, b) => a - b);
    await client.query('SELECT id FROM "List" WHERE id = ANY($1) ORDER BY id FOR UPDATE', [lists]);
    const { rows: [cur] } = await client.query('SELECT "listId", position FROM "Card" WHERE id = $1 FOR UPDATE', [cardId]);
    if (cur.listId !== card.listId) {
      await client.query('ROLLBACK');
      continue;
    }
    const { rows: [{ n }] } = await client.query('SELECT count(*)::int AS n FROM "Card" WHERE "listId" = $1 AND NOT archived AND id <> $2', [req.body.listId, cardId]);
    const position = Math.min(req.body.position ?? n, n);
    await client.query('UPDATE "Card" SET position = position - 1 WHERE "listId" = $1 AND NOT archived AND position > $2', [cur.listId, cur.position]);
    await client.query('UPDATE "Card" SET position = position + 1 WHERE "listId" = $1 AND NOT archived AND position >= $2 AND id <> $3', [req.body.listId, position, cardId]);
    await client.query('UPDATE "Card" SET "listId" = $1, position = $2, version = version + 1 WHERE id = $3', [req.body.listId, position, cardId]);
    await client.query('COMMIT');
    return { id: cardId, listId: req.body.listId, position };
    }
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
