import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export interface DocsOptions {
  title: string;
  description: string;
  /** Where the docs live, e.g. /api/docs. The document is at `${path}/openapi.json`. */
  path: string;
  /** The server URL clients prefix to every path of the document. */
  serverUrl: string;
  securitySchemes: Record<string, Record<string, unknown>>;
}

/**
 * One OpenAPI document for the routes registered in `scope` (a Fastify encapsulation context),
 * generated from the zod schemas that validate them, with Swagger UI served from the package's
 * own assets (no CDN). Register it before the routes it describes.
 */
export async function registerDocs(scope: FastifyInstance, options: DocsOptions) {
  // Paths outside the server URL (the web backend's /auth, /account, /admin) get a path-level
  // server of their own so that "Try it out" calls the right URL.
  const outside = new Set<string>();
  await scope.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: options.title, description: options.description, version: '1.0.0' },
      servers: [{ url: options.serverUrl }],
      components: { securitySchemes: options.securitySchemes as never },
      security: Object.keys(options.securitySchemes).map((name) => ({ [name]: [] })),
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      // Paths in the document are relative to the server URL, as the seed states them.
      const inside = out.url.startsWith(`${options.serverUrl}/`);
      if (!inside) outside.add(out.url);
      return { ...out, url: inside ? out.url.slice(options.serverUrl.length) : out.url };
    },
    transformObject: (documentObject) => {
      const openapiObject = (documentObject as { openapiObject: { paths?: Record<string, object> } }).openapiObject;
      for (const [path, item] of Object.entries(openapiObject.paths ?? {})) {
        if (outside.has(path.replace(/\{(\w+)\}/g, ':$1'))) (item as { servers?: unknown }).servers = [{ url: '/' }];
        for (const [method, operation] of Object.entries(item)) declareSharedErrors(method, operation as Operation, options.serverUrl !== '/v1');
      }
      allowNullInNullableEnums(openapiObject);
      return openapiObject as never;
    },
  });
  await scope.register(swaggerUi, {
    routePrefix: options.path,
    uiConfig: { persistAuthorization: true, docExpansion: 'list', deepLinking: true },
  });
  scope.get(`${options.path}/openapi.json`, { schema: { hide: true } }, async () => scope.swagger());
}

interface Operation {
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: unknown }>;
}

/**
 * Statuses that rules shared by every route can produce, declared wherever they apply: any
 * request can be rate limited (429) or shed (503); a body can be too large (413) or of the wrong type (415); a change can be refused for its body or
 * path (400) and, outside /v1, for a read-only key or a foreign Origin (403).
 */
function declareSharedErrors(method: string, operation: Operation, forbiddenApplies: boolean) {
  const responses = operation.responses;
  if (!responses || typeof responses !== 'object') return;
  const errorResponse = Object.entries(responses).find(([status]) => status >= '400')?.[1];
  if (!errorResponse) return;
  const add = (status: string, description: string) => {
    responses[status] ??= { ...errorResponse, description };
  };
  // Every operation is rate limited (SPEC §7) and sheds load when overloaded or without its database.
  add('429', 'Too many requests: RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS for this credential (or address); retry after Retry-After seconds.');
  add('503', 'Unavailable: the server is overloaded or its database is unreachable; retry after Retry-After seconds.');
  if (operation.requestBody) {
    add('413', 'The body is too large.');
    add('415', 'The body is not application/json (or multipart/form-data where the operation says so).');
  }
  if (!['get', 'head', 'options'].includes(method)) {
    add('400', 'The request is malformed; the message names the field at fault.');
    if (forbiddenApplies) add('403', 'Not allowed: a read-only key, a role that may not do this, or a cross-origin request with a session.');
  }
}

/** OpenAPI 3.0 checks enum values against `nullable`: a nullable enum must list null itself. */
function allowNullInNullableEnums(node: unknown) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) allowNullInNullableEnums(child);
    return;
  }
  const schema = node as { nullable?: boolean; enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
  for (const child of Object.values(node)) allowNullInNullableEnums(child);
}

/** The `{"error": "..."}` body every /api error has; referenced from each route's responses. */
export const errorBody = z
  .object({ error: z.string().describe('What went wrong, naming the field or rule at fault.') })
  .describe('Error');

/** The `{"error": code, "message": text}` body of /v1 errors. */
export const v1ErrorBody = z
  .object({
    error: z.string().describe('Stable machine-readable code, e.g. invalid_request.'),
    message: z.string().describe('Human-readable explanation naming the field or rule at fault.'),
  })
  .describe('Error');
