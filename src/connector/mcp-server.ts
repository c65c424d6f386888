import { performance } from 'node:perf_hooks';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { getBoardJson } from '../boards/boards/get-board.js';
import { listBoards } from '../boards/boards/list-boards.js';
import { notFound, toAppError } from '../platform/errors.js';
import { authorizeTool, hasScope } from './policy.js';
import { boardTools } from './tools/boards.js';
import { supportTools } from './tools/support.js';
import type { ConnectorTool, ToolContext } from './tools/tool.js';

export const CONNECTOR_TOOLS: ConnectorTool[] = [...boardTools, ...supportTools];

const SERVER_INFO = { name: 'taskboard', title: 'Task boards, knowledge and tickets', version: '1.0.0' };
const INSTRUCTIONS =
  'Acts as the signed-in user with exactly their permissions: board roles apply (observers read and comment), and things ' +
  'outside their reach are "not found". Boards hold lists of cards; use list_boards or search_cards to find ids, get_board ' +
  'for a board\'s lists and cards. Support workspaces (list_workspaces) hold the knowledge base, the answer agent and tickets.';

const ok = (value: object): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

const toolError = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * Runs one tool as the connection's user: the scope check, then the domain call. A refusal comes
 * back as a tool error carrying the REST API's message; an unexpected failure is logged and
 * reported without details. Every call is logged (tool, connection, outcome, duration; never
 * its arguments, which are the user's content).
 */
async function runTool(ctx: ToolContext, tool: ConnectorTool, args: unknown): Promise<CallToolResult> {
  const started = performance.now();
  let outcome: 'ok' | 'refused' | 'failed' = 'ok';
  let status = 200;
  try {
    authorizeTool(ctx.credential.scope, tool);
    return ok(await tool.run(ctx, args as never));
  } catch (error) {
    const appError = toAppError(error);
    status = appError.status;
    if (appError.status >= 500) {
      outcome = 'failed';
      if (appError.status === 500) ctx.log.error({ err: error, tool: tool.name }, 'connector tool failed');
      return toolError(appError.status === 500 ? 'internal error: the server could not complete this call; try again later' : appError.message);
    }
    outcome = 'refused';
    return toolError(appError.message);
  } finally {
    ctx.log.info(
      { tool: tool.name, connectionId: ctx.credential.connectionId, userId: ctx.credential.userId, outcome, status, durationMs: Math.round((performance.now() - started) * 100) / 100 },
      'connector tool call',
    );
  }
}

/**
 * A fresh MCP server for one request (the transport is stateless: any process answers any
 * request), with the tools and the board resources, acting for the connection's user.
 */
export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const canWrite = hasScope(ctx.credential.scope, 'write');
  for (const tool of CONNECTOR_TOOLS) {
    const registered = server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.access === 'write' ? `${tool.description} Needs a connection approved for write.` : tool.description,
        inputSchema: tool.input,
        annotations: {
          title: tool.title,
          readOnlyHint: tool.access === 'read',
          destructiveHint: tool.access === 'write' ? (tool.destructive ?? false) : undefined,
          idempotentHint: tool.access === 'write' ? (tool.idempotent ?? false) : undefined,
          openWorldHint: false,
        },
      },
      (async (args: unknown) => runTool(ctx, tool, args)) as never,
    );
    // A read-only connection is not offered what it may not do: hidden from tools/list, refused if called.
    if (tool.access === 'write' && !canWrite) registered.disable();
  }

  server.registerResource(
    'board',
    new ResourceTemplate('board://{boardId}', {
      list: async () => ({
        resources: (await listBoards({ db: ctx.db, actor: ctx.actor, archived: false })).map(({ board }) => ({
          uri: `board://${board.id}`,
          name: board.name,
          description: board.description || undefined,
          mimeType: 'application/json',
        })),
      }),
    }),
    { title: 'Board', description: 'A whole board as GET /api/boards/{id} returns it: lists with their cards, labels, custom fields, members.', mimeType: 'application/json' },
    async (uri, variables) => {
      try {
        const raw = String(variables.boardId);
        if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) throw notFound('board: not found');
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: (await getBoardJson({ db: ctx.db, actor: ctx.actor, boardId: Number(raw), cache: ctx.boardCache })).json }] };
      } catch (error) {
        // Becomes a JSON-RPC error: the REST message for a refusal, nothing of the server's otherwise.
        const appError = toAppError(error);
        if (appError.status === 500) ctx.log.error({ err: error }, 'connector resource read failed');
        throw new Error(appError.status === 500 ? 'internal error' : appError.message);
      }
    },
  );
  return server;
}
