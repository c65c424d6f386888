import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A response header's schema, with its description (@fastify/swagger moves it to the header). */
export interface DocumentedHeader {
  type: 'string';
  description: string;
}

declare module 'fastify' {
  interface FastifySchema {
    /** Headers of the responses, by status, for the document (e.g. `{ 200: { link: linkHeader } }`). */
    responseHeaders?: Record<number, Record<string, DocumentedHeader>>;
  }
}

/** `Link` of paged collections. */
export const linkHeader: DocumentedHeader = {
  type: 'string',
  description: 'RFC 8288: `<url>; rel="next"`, the next page (the same request with the cursor set); absent on the last page.',
};

/** `ETag` of a representation that can be fetched conditionally. */
export const etagHeader = (what: string): DocumentedHeader => ({
  type: 'string',
  description: `A strong entity tag: ${what}. Send it back as If-None-Match (304 when unchanged).`,
});

export interface DocsOptions {
  title: string;
  description: string;
  /** Where the docs live, e.g. /api/docs. The document is at `${path}/openapi.json`. */
  path: string;
  /** The server URL clients prefix to every path of the document. */
  serverUrl: string;
  securitySchemes: Record<string, Record<string, unknown>>;
  /** Security of the operations outside the server URL that name none (the web backend takes a session only). */
  outsideSecurity?: Record<string, string[]>[];
  /** Build the document when the app starts (default) rather than on its first request. */
  buildAtStart?: boolean;
}

/**
 * Zod schemas registered with an id (`.meta({ id: 'Board' })`, the global registry) become named component
 * schemas that every operation references; each document keeps only those its operations reach. An
 * operation's `operationId` comes from its route schema, else from its method and path.
 */

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
      // The project's licence (LICENSE, package.json).
      info: { title: options.title, description: options.description, version: '1.0.0', license: { name: 'MIT', url: 'https://opensource.org/license/mit' } },
      servers: [{ url: options.serverUrl }],
      components: { securitySchemes: options.securitySchemes as never },
      security: Object.keys(options.securitySchemes).map((name) => ({ [name]: [] })),
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input) as ReturnType<typeof jsonSchemaTransform> & {
        schema: { responseHeaders?: Record<string, unknown>; response?: Record<string, Record<string, unknown>> };
      };
      // responseHeaders (a route schema key of ours) become the responses' documented headers.
      const { responseHeaders, ...schema } = out.schema ?? {};
      if (responseHeaders && schema.response) {
        for (const [status, headers] of Object.entries(responseHeaders)) {
          if (schema.response[status]) schema.response[status] = { ...schema.response[status], headers };
        }
      }
      out.schema = schema;
      // Paths in the document are relative to the server URL, as the seed states them.
      const inside = out.url.startsWith(`${options.serverUrl}/`);
      if (!inside) outside.add(out.url);
      return { ...out, url: inside ? out.url.slice(options.serverUrl.length) : out.url };
    },
    transformObject: (documentObject) => {
      const openapiObject = jsonSchemaTransformObject(documentObject as never) as unknown as OpenApiDocument;
      for (const [path, item] of Object.entries(openapiObject.paths ?? {})) {
        const isOutside = outside.has(path.replace(/\{(\w+)\}/g, ':$1'));
        if (isOutside) (item as { servers?: unknown }).servers = [{ url: '/' }];
        for (const [method, operation] of Object.entries(item)) {
          if (!isOperation(method, operation)) continue;
          operation.operationId ??= deriveOperationId(method, path);
          if (isOutside && options.outsideSecurity) operation.security ??= options.outsideSecurity;
          describeResponses(operation);
          declareSharedErrors(method, operation, options.serverUrl !== '/v1', path.includes('{'));
        }
      }
      keepReachableSchemas(openapiObject, surfacePrefix(options.serverUrl));
      allowNullInNullableEnums(openapiObject);
      typeNullables(openapiObject, (openapiObject.components?.schemas ?? {}) as Record<string, Record<string, unknown>>);
      return openapiObject as never;
    },
  });
  // Swagger UI loads its own copy of the document (`${path}/json`), made once: the schemes a page can use.
  let uiDocument: Record<string, unknown> | undefined;
  await scope.register(swaggerUi, {
    routePrefix: options.path,
    theme: { title: `${options.title} — ${PRODUCT_NAME}`, css: [{ filename: 'contrast.css', content: DOCS_CONTRAST_CSS }] },
    // The product's name in the top bar, not Swagger's or Fastify's logo; it links to the web app.
    logo: { type: 'image/svg+xml', content: Buffer.from(DOCS_LOGO), href: '/', target: '_self' },
    uiConfig: { persistAuthorization: true, docExpansion: 'list', deepLinking: true },
    // As strict as the web app's pages: Swagger UI's bundle needs no inline script; its theme
    // CSS and SVG icons are its own files or data: URLs; the page may not be framed.
    staticCSP: DOCS_CSP,
    transformSpecificationClone: false,
    transformSpecification: (document) => (uiDocument ??= forSwaggerUi(structuredClone(document) as OpenApiDocument) as Record<string, unknown>),
  });
  scope.get(`${options.path}/openapi.json`, { schema: { hide: true } }, async () => scope.swagger());
  // Built once at start, not on the first request: building it holds the event loop for a while
  // (hundreds of ms, more on a busy machine), long enough to shed the requests around it.
  if (options.buildAtStart !== false) scope.addHook('onReady', async () => void scope.swagger());
}

/** What the docs pages call the product. */
const PRODUCT_NAME = 'Taskboard';

/** The docs' top-bar logo: the product's name, drawn as text (white on Swagger UI's dark bar). */
const DOCS_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40">
<rect x="2" y="6" width="28" height="28" rx="6" fill="#2563eb"/>
<rect x="8" y="12" width="6" height="16" rx="1.5" fill="#fff"/><rect x="18" y="12" width="6" height="10" rx="1.5" fill="#fff"/>
<text x="40" y="27" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="20" font-weight="600" fill="#fff">${PRODUCT_NAME} API</text>
</svg>`;

/**
 * Swagger UI's own colours put white on light green, blue and teal (down to 1.6:1): every text on
 * the docs pages is darkened to 4.5:1 or better, as in the web app (test/web/browser.ts checks it).
 */
const DOCS_CONTRAST_CSS = `
.swagger-ui .download-url-wrapper .download-url-button { background: #3b7a26 !important; }
.swagger-ui .info .title small { background: #555b66 !important; }
.swagger-ui .info .title small.version-stamp { background: #4a6b00 !important; }
.swagger-ui .info a, .swagger-ui .info .link, .swagger-ui .info .url, .swagger-ui .info__license__url .link { color: #1f5fae !important; }
.swagger-ui .btn.authorize, .swagger-ui .btn.authorize span { color: #17804f !important; border-color: #17804f !important; }
.swagger-ui .btn.authorize svg { fill: #17804f !important; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f6fbf !important; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17804f !important; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #a85d00 !important; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0e7c66 !important; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0262a !important; }
.swagger-ui .opblock.opblock-head .opblock-summary-method { background: #9012fe !important; }
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated, .swagger-ui .prop-format { color: #595959 !important; }
.swagger-ui .microlight, .swagger-ui .highlight-code pre, .swagger-ui pre.example { background: #111111 !important; }
.swagger-ui .microlight span[style*="211, 99, 99"], .swagger-ui .microlight span[style*="#d36363"] { color: #ff9e9e !important; }
`;

const DOCS_CSP = {
  'default-src': "'self'",
  'script-src': "'self'",
  // The one <style> element Swagger UI's bundle writes (its SVG icons' sizing), by hash: a new
  // Swagger UI version changes it, and test/web/docs.test.ts then fails on the violation.
  'style-src': "'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  'img-src': "'self' data:",
  'connect-src': "'self'",
  'font-src': "'self' data:",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'self'",
  'frame-ancestors': "'none'",
};

type SecurityRequirement = Record<string, string[]>;

interface Operation {
  operationId?: string;
  description?: string;
  security?: SecurityRequirement[];
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDocument {
  info?: { description?: string };
  paths?: Record<string, Record<string, unknown>>;
  security?: SecurityRequirement[];
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, { type?: string; in?: string }> };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const isOperation = (method: string, value: unknown): value is Operation => METHODS.has(method) && !!value && typeof value === 'object';

/**
 * An operationId for a route that names none: its method and the words of its path, e.g.
 * `GET /agent/workspaces/{workspaceId}/agents` → `getAgentWorkspacesAgents`, `…/{id}` → `…ById`.
 */
function deriveOperationId(method: string, path: string) {
  const segments = path.split('/').filter(Boolean);
  const words = segments
    .filter((segment) => !segment.startsWith('{'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return `${method}${words.join('')}${segments.at(-1)?.startsWith('{') ? 'ById' : ''}`;
}

const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '206': 'Partial content',
  '304': 'Not modified: If-None-Match holds the current ETag. No body.',
  '400': 'The request is malformed; the message names the field at fault.',
  '401': 'Missing, unknown, revoked or expired credentials.',
  '403': 'Not allowed.',
  '404': 'Not found (or not visible to this credential).',
  '409': 'Conflict with the current state; the message says which.',
  '413': 'The body is too large.',
  '415': 'The body is not of a type the operation takes.',
  '416': 'The range cannot be satisfied.',
  '429': 'Too many requests; retry after Retry-After seconds.',
  '502': 'An upstream service failed.',
  '503': 'Unavailable; retry after Retry-After seconds.',
};

/**
 * A response whose schema is a component reference gets @fastify/swagger's "Default Response"
 * description: name the status instead. A 204 has no body, so no content either.
 */
function describeResponses(operation: Operation) {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    // `errorBody.describe('…')` is the component plus a description: the response says it, the schema is the reference.
    for (const media of Object.values(response.content ?? {})) {
      const schema = media.schema as { description?: string; allOf?: { $ref?: string }[] } | undefined;
      if (schema?.allOf?.length === 1 && schema.allOf[0]!.$ref && Object.keys(schema).every((key) => key === 'allOf' || key === 'description')) {
        media.schema = { $ref: schema.allOf[0]!.$ref };
      }
    }
    if (status === '204' || status === '304') {
      delete response.content;
      response.description = STATUS_DESCRIPTIONS[status]!;
    } else if (!response.description || response.description === 'Default Response') {
      response.description = STATUS_DESCRIPTIONS[status] ?? 'Response';
    }
  }
}

/**
 * Keeps the component schemas the document's operations reach (the registry is shared by both
 * documents), and names them: a schema seen only in requests loses the `Input` suffix that
 * fastify-type-provider-zod gives request-side copies, and one named for this surface loses its
 * prefix (registry ids are global, so /v1's error is `V1Error`, and `Error` in the /v1 document).
 */
function keepReachableSchemas(document: OpenApiDocument, prefix: string) {
  const all = document.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(REF)) {
        const name = value.slice(REF.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(all[name]);
        }
      } else visit(value);
    }
  };
  visit(document.paths);
  const names = new Map<string, string>();
  for (const name of reached) {
    let target = name;
    if (prefix && target.startsWith(prefix) && /^[A-Z]/.test(target.slice(prefix.length))) target = target.slice(prefix.length);
    if (target.endsWith('Input') && !reached.has(target.slice(0, -'Input'.length))) target = target.slice(0, -'Input'.length);
    names.set(name, target);
  }
  const kept: Record<string, unknown> = {};
  for (const name of [...reached].sort((a, b) => names.get(a)!.localeCompare(names.get(b)!))) {
    const target = names.get(name)!;
    if (target in kept) throw new Error(`two component schemas would be named ${target}`);
    kept[target] = all[name];
  }
  const rename = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(rename);
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith(REF)) record.$ref = REF + (names.get(record.$ref.slice(REF.length)) ?? record.$ref.slice(REF.length));
    for (const value of Object.values(record)) rename(value);
  };
  rename(document.paths);
  rename(kept);
  document.components = { ...document.components, schemas: kept };
}
const REF = '#/components/schemas/';

/** `/v1` → `V1`: the prefix of component ids that belong to that surface only. */
const surfacePrefix = (serverUrl: string) => serverUrl.replace(/^\//, '').toUpperCase();

/**
 * Statuses that rules shared by every route can produce, declared wherever they apply: any
 * request can be rate limited (429) or shed (503), or refused for an unknown query parameter (400); a body can be too large (413) or of the
 * wrong type (415); a path parameter can be too long (414); a change can be refused, outside /v1, for a read-only key or a foreign Origin (403).
 */
function declareSharedErrors(method: string, operation: Operation, forbiddenApplies: boolean, hasPathParameters: boolean) {
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
  // Reads change nothing, so they never conflict: a 409 that shared error lists carry is not theirs.
  if (method === 'get') delete responses['409'];
  // A path parameter longer than the router takes (an id of 150 digits) is refused before routing.
  if (hasPathParameters) add('414', 'A path segment is too long (ids are at most 10 digits).');
  // Any operation refuses unknown query parameters (query-rules.ts).
  add('400', 'The request is malformed (an unknown query parameter, a field at fault); the message names it.');
  if (!['get', 'head', 'options'].includes(method)) {
    if (forbiddenApplies) add('403', 'Not allowed: a read-only key, a role that may not do this, or a cross-origin request with a session.');
  }
}

/**
 * The document as Swagger UI gets it: without the schemes a page cannot use. A page cannot set a
 * Cookie header, so a cookie scheme's Authorize field would do nothing; a signed-in browser sends
 * its cookie by itself, though. An operation that takes only such schemes needs none in the UI
 * (so that the key entered is not sent where it is refused) and says so. The document at
 * `openapi.json` stays as it is: it lists every scheme.
 */
function forSwaggerUi(document: OpenApiDocument): OpenApiDocument {
  const schemes = document.components?.securitySchemes ?? {};
  const unusable = new Set(Object.keys(schemes).filter((name) => schemes[name]!.type === 'apiKey' && schemes[name]!.in === 'cookie'));
  if (unusable.size === 0) return document;
  const usable = (requirements: SecurityRequirement[]) => requirements.filter((r) => Object.keys(r).every((name) => !unusable.has(name)));
  for (const name of unusable) delete schemes[name];
  if (document.security) document.security = usable(document.security);
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!isOperation(method, operation) || !operation.security) continue;
      const kept = usable(operation.security);
      if (kept.length === 0 && operation.security.length > 0) {
        const note = 'Takes a signed-in session only: from this page, it works once this browser is signed in to the web app (the browser sends its cookie).';
        operation.description = operation.description ? `${operation.description}\n\n${note}` : note;
      }
      operation.security = kept;
    }
  }
  if (document.info) {
    document.info.description =
      `${document.info.description ?? ''}\n\nThis page offers only the schemes a page can send (${Object.keys(schemes).join(', ')}): ` +
      `a page cannot set a Cookie header. The document itself (openapi.json) lists every scheme, the cookie (${[...unusable].join(', ')}) too.`;
  }
  return document;
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

/**
 * OpenAPI 3.0 has no null type: a `nullable` schema must say which type may also be null
 * (redocly's nullable-type-sibling). `{anyOf: [A, B], nullable}` becomes `{anyOf: [A?, B?]}`, and a
 * nullable reference (`{allOf: [{$ref}], nullable}`) is written out in place: `nullable` does not
 * reach into `allOf`, so a null there broke the referenced object's schema (and clients generated
 * from it rejected the null: POST /admin/users's `setupLink`, GET /auth/session's `user`).
 */
function typeNullables(node: unknown, components: Record<string, Record<string, unknown>>, inlined: ReadonlySet<string> = new Set()) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((child) => typeNullables(child, components, inlined));
  let within = inlined;
  const schema = node as { nullable?: boolean; type?: string; anyOf?: Record<string, unknown>[]; oneOf?: unknown[]; allOf?: Record<string, unknown>[] };
  if (schema.nullable === true && schema.type === undefined) {
    const branches = schema.anyOf ?? (schema.oneOf as Record<string, unknown>[] | undefined);
    if (branches && branches.every((branch) => typeof branch.type === 'string')) {
      for (const branch of branches) branch.nullable = true;
      delete schema.nullable;
    } else if (schema.allOf?.length === 1 && typeof schema.allOf[0]!.$ref === 'string') {
      const name = (schema.allOf[0]!.$ref as string).replace('#/components/schemas/', '');
      const referred = components[name];
      // A schema that holds itself (nullable) stays a reference there: written out, it would never end.
      if (referred && !inlined.has(name)) {
        within = new Set([...inlined, name]);
        const { description } = schema as { description?: string };
        delete schema.allOf;
        Object.assign(schema, structuredClone(referred), description ? { description } : {}, { nullable: true });
      } else schema.type = 'object';
    }
  }
  for (const child of Object.values(node)) typeNullables(child, components, within);
}

/** The `{"error": "..."}` body every /api error has; referenced from each route's responses. */
export const errorBody = z
  .object({ error: z.string().describe('What went wrong, naming the field or rule at fault.') })
  .meta({ id: 'Error', description: 'An error: `{"error": "<message>"}`.' });

/** The `{"error": code, "message": text}` body of /v1 errors (named `Error` in the /v1 document). */
export const v1ErrorBody = z
  .object({
    error: z.string().describe('Stable machine-readable code, e.g. invalid_request.'),
    message: z.string().describe('Human-readable explanation naming the field or rule at fault.'),
  })
  .meta({ id: 'V1Error', description: 'An error: `{"error": "<code>", "message": "<text>"}`.' });
