/**
 * The floor the board benchmark compares against: a bare Fastify app on `pg` with hand-written
 * SQL and no authentication, validation or activity. `GET /floor/boards/:id` builds the board
 * JSON (with labels, assignees, values and counts, by correlated subqueries) in one json_agg query; `POST /floor/cards/:id/move` is one transaction that locks the
 * lists, shifts positions and updates the card.
 * Usage (by bench/boards.ts): DATABASE_URL=… PORT=… npx tsx bench/floor-server.ts
 */
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify();

const BOARD_SQL = `
SELECT json_build_object(
  'id', b.id, 'name', b.name, 'description', b.description, 'archived', b.archived,
  'createdAt', b."createdAt", 'updatedAt', b."updatedAt",
  'members', (SELECT coalesce(json_agg(json_build_object('userId', m."userId", 'name', u.name, 'email', u.email, 'role', m.role) ORDER BY m."createdAt"), '[]')
              FROM "BoardMember" m JOIN "User" u ON u.id = m."userId" WHERE m."boardId" = b.id),
  'labels', (SELECT coalesce(json_agg(json_build_object('id', x.id, 'name', x.name, 'color', x.color)), '[]') FROM "Label" x WHERE x."boardId" = b.id),
  'customFields', (SELECT coalesce(json_agg(json_build_object('id', x.id, 'name', x.name, 'type', x.type, 'options', x.options)), '[]') FROM "CustomField" x WHERE x."boardId" = b.id),
  'lists', (SELECT coalesce(json_agg(json_build_object('id', l.id, 'boardId', l."boardId", 'name', l.name, 'position', l.position, 'archived', l.archived,
              'cards', (SELECT coalesce(json_agg(json_build_object('id', c.id, 'boardId', c."boardId", 'listId', c."listId", 'title', c.title,
                          'description', c.description, 'position', c.position, 'archived', c.archived, 'dueAt', c."dueAt",
                          'labelIds', (SELECT coalesce(json_agg(x."labelId"), '[]') FROM "CardLabel" x WHERE x."cardId" = c.id),
                          'memberIds', (SELECT coalesce(json_agg(x."userId"), '[]') FROM "CardAssignee" x WHERE x."cardId" = c.id),
                          'fieldValues', (SELECT coalesce(json_object_agg(x."fieldId", x.value), '{}') FROM "CardFieldValue" x WHERE x."cardId" = c.id),
                          'checklistItems', (SELECT json_build_object('total', count(*), 'checked', count(*) FILTER (WHERE i.checked))
                                             FROM "ChecklistItem" i JOIN "Checklist" k ON k.id = i."checklistId" WHERE k."cardId" = c.id),
                          'commentCount', (SELECT count(*) FROM "Comment" x WHERE x."cardId" = c.id),
                          'attachmentCount', (SELECT count(*) FROM "Attachment" x WHERE x."cardId" = c.id),
                          'createdAt', c."createdAt", 'updatedAt', c."updatedAt", 'version', c.version) ORDER BY c.position), '[]')
                        FROM "Card" c WHERE c."listId" = l.id AND NOT c.archived)) ORDER BY l.position), '[]')
            FROM "List" l WHERE l."boardId" = b.id AND NOT l.archived)
) AS board
FROM "Board" b WHERE b.id = $1`;

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
