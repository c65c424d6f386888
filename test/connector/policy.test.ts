import { describe, expect, it } from 'vitest';
import { CONNECTOR_TOOLS } from '../../src/connector/mcp-server.js';
import { authorizeTool, requestedWrite, scopeFor } from '../../src/connector/policy.js';

describe('connector policy', () => {
  const read = { name: 'list_boards', access: 'read' as const };
  const write = { name: 'move_card', access: 'write' as const };

  it.each([
    ['read', read, true],
    ['read', write, false],
    ['read write', read, true],
    ['read write', write, true],
    ['', read, false],
    ['write', read, false],
  ])('scope "%s" and %o → allowed %s', (scope, tool, allowed) => {
    if (allowed) expect(() => authorizeTool(scope, tool)).not.toThrow();
    else expect(() => authorizeTool(scope, tool)).toThrow(expect.objectContaining({ status: 403 }));
  });

  it('approves read alone, or read and write; asks for write only when the client did', () => {
    expect(scopeFor(false)).toBe('read');
    expect(scopeFor(true)).toBe('read write');
    expect(requestedWrite('read write')).toBe(true);
    expect(requestedWrite('read')).toBe(false);
    expect(requestedWrite(undefined)).toBe(false);
    expect(requestedWrite('openid writer')).toBe(false);
  });

  it('every tool says honestly whether it changes data', () => {
    const writes = CONNECTOR_TOOLS.filter((t) => t.access === 'write').map((t) => t.name).sort();
    expect(writes).toEqual(['add_checklist_item', 'add_comment', 'ask_agent', 'create_card', 'create_checklist', 'create_ticket', 'move_card', 'update_card']);
    for (const tool of CONNECTOR_TOOLS) expect(tool.name).toMatch(/^[a-z_]+$/);
  });
});
