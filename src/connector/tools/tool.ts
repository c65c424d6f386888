import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Generator } from '../../answers/generators/generator.js';
import type { SemanticRanking } from '../../answers/retrieval/vectors/semantic-ranking.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import type { PrismaClient } from '../../platform/db.js';
import type { EventBus } from '../../boards/activity/event-bus.js';
import type { BoardCache } from '../../boards/boards/board-cache.js';
import type { Effects } from '../../platform/after-commit.js';
import type { ToolAccess } from '../policy.js';
import type { ConnectorCredential } from '../resolve-connector-token.js';

/** What every tool runs with: the app's services and the user the connection acts for. */
export interface ToolContext {
  db: PrismaClient;
  events: EventBus;
  /** Board fetches kept in memory (the same cache as GET /api/boards/{id}); absent: always read. */
  boardCache?: BoardCache | undefined;
  generator: Generator;
  /** The answer agent's semantic ranking (app.semanticRanking); null: lexical. */
  semanticRanking: SemanticRanking | null;
  /** The user, for the board domain functions (the same rules as /api). */
  actor: Actor;
  credential: ConnectorCredential;
  log: FastifyBaseLogger;
  /** What follows the commit of a tool's change (platform/after-commit.ts): the server's own. */
  effects: Effects;
}

/** One MCP tool: its zod input (validated by the SDK), what it does to data, and its domain call. */
export interface ConnectorTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  access: ToolAccess;
  /** Changes that cannot be undone by calling it again (deletes, archives) — for the annotation. */
  destructive?: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotent?: boolean;
  input: Shape;
  run(ctx: ToolContext, args: z.output<z.ZodObject<Shape>>): Promise<object>;
}

/** Keeps each tool's argument type tied to its own input schema. */
export const tool = <Shape extends z.ZodRawShape>(definition: ConnectorTool<Shape>) => definition as unknown as ConnectorTool;
