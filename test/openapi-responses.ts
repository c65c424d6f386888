import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';

/**
 * Validates a response against its operation's schema in the served OpenAPI document, the way a
 * client generated from the document reads it: ajv with OpenAPI 3.0's `nullable` (which it knows),
 * `#/components/...` references resolved against the document.
 */
export async function responseSchemaOf(app: FastifyInstance, docPath: string, method: string, path: string, status: number): Promise<ValidateFunction> {
  const doc = (await app.inject({ method: 'GET', url: docPath })).json() as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
    components: unknown;
  };
  const schema = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the document declares no JSON ${status} for ${method} ${path}`);
  const ajv = new Ajv({ strict: false, allErrors: true });
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(/^#\//, 'doc#/') : rewrite(v)]));
  };
  ajv.addSchema({ $id: 'doc', components: rewrite(doc.components) });
  return ajv.compile(rewrite(schema) as object);
}
