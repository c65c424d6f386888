/**
 * The floor the answer benchmark compares against: a bare Fastify app on `pg` doing the database
 * work of one answer call — the agent joined with its workspace, a new conversation, its turn and
 * the conversation's update, in one transaction — with no authentication, validation, retrieval
 * or generation. Usage (by bench/answers.ts): DATABASE_URL=… PORT=… AGENT_ID=… npx tsx bench/answer-floor-server.ts
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// The benchmark drops the database under a still-running floor: an idle client's error must not crash it.
pool.on('error', () => {});
const app = Fastify();
const agentId = process.env.AGENT_ID!;

app.post<{ Body: { message: string } }>('/floor/answer', async (req) => {
  const client = await pool.connect();
  try {
    const { rows } = await client.query(
      `SELECT a.id, a."workspaceId", w."knowledgeVersion" FROM "Agent" a JOIN "Workspace" w ON w.id = a."workspaceId" WHERE a.id = $1 AND a.published`,
      [agentId],
    );
    const agent = rows[0];
    const id = `cnv_${randomBytes(15).toString('base64url')}`;
    await client.query('BEGIN');
    await client.query(`INSERT INTO "Conversation" (id, "workspaceId", "agentId", "needsHuman", "createdAt", "updatedAt") VALUES ($1, $2, $3, false, now(), now())`, [id, agent.workspaceId, agent.id]);
    await client.query(
      `INSERT INTO "ConversationTurn" ("conversationId", "workspaceId", "agentId", question, reply, sources, confidence, "needsHuman", attachments, "latencyMs")
       VALUES ($1, $2, $3, $4, 'floor', '[]', 'low', false, '[]', 0)`,
      [id, agent.workspaceId, agent.id, req.body.message],
    );
    await client.query(`UPDATE "Conversation" SET "updatedAt" = now() WHERE id = $1`, [id]);
    await client.query('COMMIT');
    return { conversationId: id, agentId: agent.id, message: 'floor', sources: [], needs_human: false, confidence: 'low' };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
