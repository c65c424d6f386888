import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Generator } from '../../answers/generators/generator.js';
import type { Actor } from '../../accounts/credentials/auth.js';
import { AppError } from '../../platform/errors.js';
import type { AuthorizationServerHandle } from '../authorization-server.js';
import { CONNECTOR_SCOPES, hasScope } from '../policy.js';
import { type ConnectorCredential, resolveConnectorToken } from '../resolve-connector-token.js';
import type { ConnectorUrls } from '../urls.js';

/**
 * The MCP SDK and our tools (a third of a second of CPU to load) are loaded on the first /mcp
 * request rather than with the server, whose start most instances never follow with one.
 */
let mcpModules: Promise<[typeof import('../mcp-server.js'), typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]> | undefined;
const loadMcp = () => (mcpModules ??= Promise.all([import('../mcp-server.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]));

declare module 'fastify' {
  interface FastifyRequest {
    /** The connection a /mcp request authenticated as (set by the connector's gate). */
    connector: ConnectorCredential | null;
  }
}

/**
 * 401 as RFC 9728 and RFC 6750 ask: the challenge names the resource's metadata, where the
 * client finds the authorisation server.
 */
function challenge(urls: ConnectorUrls, message: string, error?: 'invalid_token' | 'invalid_request') {
  const params = [`resource_metadata="${urls.resourceMetadata}"`, `scope="${CONNECTOR_SCOPES.join(' ')}"`];
  if (error) params.push(`error="${error}"`, `error_description="${message.replace(/["\\]/g, '')}"`);
  return new AppError(401, 'unauthorized', message, { 'www-authenticate': `Bearer ${params.join(', ')}` });
}

/** The board domain's actor for the connection's user: as their own session would act, no further. */
function actorOf(credential: ConnectorCredential): Actor {
  const { connectionId: _c, clientId: _id, clientName, scope, ...principal } = credential;
  // `via: 'session'`: the domain treats the connection as the user acting themselves (no key
  // limits); what it may change is bounded by the scope, checked per tool (policy.ts).
  // `client`: changes are recorded as made through this assistant ("via Claude").
  return { ...principal, via: 'session', keyId: null, sessionId: null, permission: hasScope(scope, 'write') ? 'write' : 'read', boardIds: null, client: clientName };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
};

/** /mcp (Streamable HTTP, stateless, JSON responses) and its RFC 9728 metadata. */
export const mcpRoutes: FastifyPluginAsync<{ server: AuthorizationServerHandle; urls: ConnectorUrls; generator: Generator }> = async (app, { server, urls, generator }) => {
  const metadata = {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...CONNECTOR_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Task boards, knowledge and tickets',
    resource_documentation: `${urls.issuer}/api/docs`,
  };
  for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.headers(CORS).header('cache-control', 'public, max-age=3600').send(metadata));
  }

  app.decorateRequest('connector', null);

  // A live connection gets its own rate-limit budget from its first request, like any credential.
  app.rateLimitIdentifiers.push(async (request) => {
    if (!request.url.startsWith('/mcp')) return undefined;
    const token = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return undefined;
    const credential = await resolveConnectorToken({ db: app.db.prisma, server: await server(), token, resource: urls.resource });
    return credential ? `c:${credential.connectionId}` : null;
  });

  /** The gate: a connector access token bound to /mcp, of a live connection of an active user. */
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    reply.headers(CORS);
    const header = request.headers.authorization;
    if (header === undefined) throw challenge(urls, 'authorization: missing; connect through OAuth (see the resource metadata)');
    const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
    if (!token) throw challenge(urls, 'authorization: expected "Bearer <access token>"', 'invalid_request');
    const credential = await resolveConnectorToken({ db: app.db.prisma, server: await server(), token, resource: urls.resource });
    if (!credential) throw challenge(urls, 'authorization: access token is invalid, expired or revoked, or not for this resource', 'invalid_token');
    request.connector = credential;
  }

  app.options('/mcp', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .headers(CORS)
      .header('access-control-allow-methods', 'POST, GET, DELETE, OPTIONS')
      .header('access-control-allow-headers', 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id')
      .header('access-control-max-age', '86400')
      .status(204)
      .send(),
  );

  // Stateless: no session to resume or stream to open, so GET and DELETE are 405 (as the transport says).
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    onRequest: authenticate,
    handler: async (_request, reply) => reply.status(405).header('allow', 'POST').send({ error: 'method: this server is stateless; POST JSON-RPC messages to /mcp' }),
  });

  // The body is JSON-RPC, validated by the SDK (its errors are JSON-RPC errors).
  const jsonRpc = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())], { message: 'must be a JSON-RPC message' });
  app.post('/mcp', { schema: { hide: true, body: jsonRpc }, onRequest: authenticate }, async (request, reply) => {
    // One message per request: the rate limit counts requests, and a batch of 100 tool calls ran
    // 100 calls for one (MCP 2025-06-18 removed JSON-RPC batching; no client of ours sends one).
    if (Array.isArray(request.body)) {
      return reply.status(400).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per request' },
      });
    }
    const credential = request.connector!;
    const [{ buildMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await loadMcp();
    const mcp = buildMcpServer({
      db: app.db.prisma,
      events: app.events,
      boardCache: app.boardCache,
      generator,
      semanticRanking: app.semanticRanking,
      actor: actorOf(credential),
      credential,
      log: request.log,
      effects: app.effects,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await mcp.connect(transport);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined && name !== 'authorization' && name !== 'cookie') headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await transport.handleRequest(new Request(urls.resource, { method: 'POST', headers }), { parsedBody: request.body });
      reply.status(response.status);
      response.headers.forEach((value, name) => reply.header(name, value));
      const body = await response.text();
      return reply.send(body.length ? body : null);
    } finally {
      await mcp.close();
    }
  });
};
