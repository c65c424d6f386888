import { clientMetadataFetchAllowed, guardedMetadataFetch } from '../../src/connector/client-metadata-fetch.js';
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

describe('client ID metadata documents: which URLs may be fetched', () => {
  it('refuses http, and IP literals that are private, loopback, link-local or special-use, before any connection', async () => {
    for (const url of ['http://example.com/client.json', 'https://10.0.0.1/c', 'https://192.168.1.1/c', 'https://169.254.169.254/c', 'https://[fe80::1]/c', 'https://[::ffff:10.0.0.1]/c', 'https://100.64.0.1/c', 'not a url']) {
      expect(await clientMetadataFetchAllowed(url), url).toBe(false);
    }
    // The fetch itself refuses the same literals, whatever the check before it said.
    await expect(guardedMetadataFetch('https://10.0.0.1/c')).rejects.toThrow(/private or loopback/);
    await expect(guardedMetadataFetch('http://203.0.113.9/c')).rejects.toThrow(/https only/);
  });
});
