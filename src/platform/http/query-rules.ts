import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { badRequest } from '../errors.js';

/**
 * Unknown query parameters are refused (400 naming them) as unknown body fields are: a typo
 * (`?archive=true`, `?limt=5`) would otherwise be silently ignored and answer something else
 * than what was asked. Applies to every documented route (one with a schema that is not hidden):
 * /api, /v1 and the web backend; a route with no query schema takes no parameter at all.
 */
export function registerQueryRules(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const schema = request.routeOptions.schema;
    if (request.is404 || !schema || schema.hide) return;
    const allowed = allowedKeys(schema.querystring);
    if (allowed === 'any') return;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(query).filter((key) => !allowed.has(key));
    if (unknown.length === 0) return;
    const [first, ...others] = unknown;
    throw badRequest(`querystring.${first}: unknown parameter${others.length ? ` (and ${others.join(', ')})` : ''}`);
  });
}

const cache = new WeakMap<object, Set<string> | 'any'>();

/** The parameter names a querystring schema declares; 'any' when it takes any (or cannot be read). */
function allowedKeys(schema: unknown): Set<string> | 'any' {
  if (schema === undefined || schema === null) return new Set();
  if (typeof schema !== 'object') return 'any';
  let keys = cache.get(schema);
  if (keys === undefined) {
    keys = objectKeys(schema) ?? 'any';
    cache.set(schema, keys);
  }
  return keys;
}

/** Through optional, default, pipe and preprocess wrappers to the object's keys; null when there is none. */
function objectKeys(schema: unknown): Set<string> | null {
  if (schema instanceof z.ZodObject) {
    const catchall = schema.def.catchall;
    // .passthrough()/.loose(): any parameter is welcome.
    if (catchall && !(catchall instanceof z.ZodNever)) return null;
    return new Set(Object.keys(schema.shape));
  }
  const def = (schema as { _zod?: { def?: { innerType?: unknown; in?: unknown; out?: unknown } } })._zod?.def;
  if (!def) return null;
  for (const inner of [def.innerType, def.in, def.out]) {
    if (inner) {
      const keys = objectKeys(inner);
      if (keys) return keys;
    }
  }
  return null;
}
