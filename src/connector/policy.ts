import { forbidden } from '../platform/errors.js';

/** What a connection may be granted: `read`, or `read` and `write`. */
export const CONNECTOR_SCOPES = ['read', 'write'] as const;
export type ConnectorScope = (typeof CONNECTOR_SCOPES)[number];

/** What a tool does to the user's data: reads only, or changes something. */
export type ToolAccess = 'read' | 'write';

/** The scopes a person approves: read alone, or read and write. */
export function scopeFor(write: boolean): string {
  return write ? 'read write' : 'read';
}

/** The scopes a client asked for that the connector knows (anything else is ignored); none = read. */
export function requestedWrite(scope: string | undefined): boolean {
  return (scope ?? '').split(/\s+/).includes('write');
}

export const hasScope = (granted: string, scope: ConnectorScope) => granted.split(/\s+/).includes(scope);

/**
 * The connector's one authorisation rule on top of the user's own: a tool that changes
 * something needs a connection approved for write. What the user may reach and do on a board
 * or in a workspace is then decided by the same domain rules as /api (404 outside reach, 403 by role).
 */
export function authorizeTool(granted: string, tool: { name: string; access: ToolAccess }) {
  if (tool.access === 'read' && hasScope(granted, 'read')) return;
  if (tool.access === 'write' && hasScope(granted, 'write')) return;
  throw forbidden(`this connection is read-only: ${tool.name} changes data; disconnect and connect again approving read and write`);
}
