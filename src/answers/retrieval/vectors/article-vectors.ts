import type { DbClient } from '../../../platform/db.js';
import type { ArticleVectors } from '../semantic.js';

/** The SQL of an article's content hash: what its vectors were computed from (ArticleVector.contentHash). */
const CONTENT_HASH = `encode(sha256(convert_to(a.title || E'\\n' || a.body, 'UTF8')), 'hex')`;

/** Articles of the workspace without current vectors from this model (none, or computed before a change), oldest first. */
export async function articlesWithoutVectors({ db, workspaceId, model, limit }: { db: DbClient; workspaceId: number; model: string; limit: number }) {
  return db.$queryRawUnsafe<{ id: number; title: string; body: string; contentHash: string }[]>(
    `SELECT a.id, a.title, a.body, ${CONTENT_HASH} AS "contentHash"
     FROM "Article" a LEFT JOIN "ArticleVector" v ON v."articleId" = a.id AND v.model = $2::text
     WHERE a."workspaceId" = $1::int AND (v."articleId" IS NULL OR v."contentHash" <> ${CONTENT_HASH})
     ORDER BY a.id LIMIT $3::int`,
    workspaceId,
    model,
    limit,
  );
}

/**
 * Keeps an article's vectors, unless the article changed (or was deleted) while they were computed:
 * then nothing is written and the next build computes them again.
 */
export async function storeArticleVectors({ db, workspaceId, articleId, model, contentHash, vectors }: { db: DbClient; workspaceId: number; articleId: number; model: string; contentHash: string; vectors: Float32Array[] }) {
  const dimensions = vectors[0]?.length ?? 0;
  const bytes = Buffer.alloc(vectors.length * dimensions * 4);
  vectors.forEach((v, i) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(bytes, i * dimensions * 4));
  await db.$executeRawUnsafe(
    `INSERT INTO "ArticleVector" ("articleId", "workspaceId", model, "contentHash", vectors, count, dimensions)
     SELECT a.id, a."workspaceId", $2::text, $3::text, $4::bytea, $5::int, $6::int FROM "Article" a
     WHERE a.id = $1::int AND a."workspaceId" = $7::int AND ${CONTENT_HASH} = $3::text
     ON CONFLICT ("articleId", model) DO UPDATE
       SET "contentHash" = EXCLUDED."contentHash", vectors = EXCLUDED.vectors, count = EXCLUDED.count, dimensions = EXCLUDED.dimensions, "createdAt" = now()`,
    articleId,
    model,
    contentHash,
    bytes,
    vectors.length,
    dimensions,
    workspaceId,
  );
}

/** The workspace's current vectors from this model, and whether every article has them. */
export async function loadArticleVectors({ db, workspaceId, model }: { db: DbClient; workspaceId: number; model: string }): Promise<{ vectors: ArticleVectors; complete: boolean; bytes: number }> {
  const rows = await db.$queryRawUnsafe<{ articleId: number; vectors: Uint8Array; count: number; dimensions: number }[]>(
    `SELECT v."articleId", v.vectors, v.count, v.dimensions
     FROM "ArticleVector" v JOIN "Article" a ON a.id = v."articleId"
     WHERE a."workspaceId" = $1::int AND v.model = $2::text AND v."contentHash" = ${CONTENT_HASH}`,
    workspaceId,
    model,
  );
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "Article" WHERE "workspaceId" = $1`, workspaceId);
  const n = row?.n ?? 0;
  const vectors = new Map<number, Float32Array[]>();
  let bytes = 0;
  for (const row of rows) {
    // A copy aligned for Float32Array (the driver's buffer may start at any byte).
    const all = new Float32Array(new Uint8Array(row.vectors).buffer);
    const list: Float32Array[] = [];
    for (let i = 0; i < row.count; i++) list.push(all.subarray(i * row.dimensions, (i + 1) * row.dimensions));
    vectors.set(row.articleId, list);
    bytes += all.byteLength;
  }
  return { vectors, complete: rows.length >= n, bytes };
}

/** How many of the workspace's articles have current vectors from this model. */
export async function countArticleVectors({ db, workspaceId, model }: { db: DbClient; workspaceId: number; model: string }): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "ArticleVector" v JOIN "Article" a ON a.id = v."articleId"
     WHERE a."workspaceId" = $1::int AND v.model = $2::text AND v."contentHash" = ${CONTENT_HASH}`,
    workspaceId,
    model,
  );
  return row?.n ?? 0;
}
