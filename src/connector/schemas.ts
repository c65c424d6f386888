import { z } from 'zod';

/** A connected app, as the "Connected apps" page lists it. */
export const connection = z
  .object({
    /** Connection id (for DELETE /account/connections/{id}). */
    id: z.number().int().describe('Connection id (for DELETE /account/connections/{id}).'),
    /** The name the assistant registered with (its client_name), else its client id. */
    clientName: z.string().describe('The name the assistant registered with (its client_name), else its client id.'),
    /** The OAuth client id: a random id, or the https URL of its metadata document. */
    clientId: z.string().describe('The OAuth client id: a random id, or the https URL of its metadata document.'),
    /** What was approved: ["read"] or ["read", "write"]. */
    scopes: z.array(z.enum(['read', 'write'])).describe('What was approved: ["read"] or ["read", "write"].'),
    /** When it was approved (ISO-8601 UTC). */
    createdAt: z.string().describe('When it was approved (ISO-8601 UTC).'),
    /** Last call to /mcp, to the minute (may lag up to a minute); null = never used. */
    lastUsedAt: z.string().nullable().describe('Last call to /mcp, to the minute (may lag up to a minute); null = never used.'),
  })
  .describe('Connection');
export type ConnectionView = z.infer<typeof connection>;

export const connectionList = z.object({
  /** The URL to paste into an assistant to connect it (the MCP server, `<PUBLIC_BASE_URL>/mcp`). */
  connectorUrl: z.string().describe('The URL to paste into an assistant to connect it (the MCP server, `<PUBLIC_BASE_URL>/mcp`).'),
  /** Most recent first. */
  connections: z.array(connection).describe('Most recent first.'),
});
