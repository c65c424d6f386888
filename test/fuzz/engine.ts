import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { Fixtures } from './fixtures.js';

/**
 * Requests generated for every operation of both OpenAPI documents, and for unknown routes,
 * sent with app.inject. A response fails when it is a 5xx, when its status is not declared for
 * the operation, when its body breaks the declared schema (errors included: the surface's
 * shape), when it has no request id, or when it took more than `slowMs`.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;

interface Operation {
  surface: 'api' | 'session' | 'v1';
  method: string;
  /** The path as sent, with {params}. */
  template: string;
  operation: Schema;
  doc: 'api' | 'v1';
}

export interface FuzzCase {
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  operation: Operation | null;
}

export interface Failure {
  case: string;
  problem: string;
}

export interface FuzzResult {
  cases: number;
  byKind: Record<string, number>;
  statuses: Record<string, number>;
  failures: Failure[];
  slowestMs: number;
}

const LONE_SURROGATE = '\ud800';
const HOSTILE_STRINGS = ['', ' ', LONE_SURROGATE, `a${LONE_SURROGATE}b`, '\udc00', 'a\u0000b', '../../etc/passwd', '%00', '<script>alert(1)</script>', "'; DROP TABLE \"User\"; --", '\u202e\u0000\uffff', '🙂'.repeat(50)];
const BAD_IDS = ['abc', '-1', '0', '1.5', '1e3', '2147483648', '9'.repeat(150), '%ff', '..%2f..%2fetc%2fpasswd', '%2e%2e', ' 1', '0x10', 'null', '[1]'];
const CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json-patch+json'];

/** A tiny seeded generator (mulberry32): cases are the same for the same seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof rng>;

export function operationsOf(apiDoc: Schema, v1Doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [doc, document] of [['api', apiDoc], ['v1', v1Doc]] as const) {
    const docBase = (document.servers?.[0]?.url as string | undefined) ?? '';
    for (const [path, item] of Object.entries<Schema>(document.paths)) {
      const base = (item.servers?.[0]?.url as string | undefined) ?? docBase;
      for (const [method, operation] of Object.entries<Schema>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const template = `${base === '/' ? '' : base}${path}`;
        const surface = doc === 'v1' ? 'v1' : base === '/api' ? 'api' : 'session';
        out.push({ surface, method: method.toUpperCase(), template, operation, doc });
      }
    }
  }
  return out;
}

/** Resolves `#/components/...` refs (the documents have no cycles through required fields that matter here). */
function deref(doc: Schema, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 20) return {};
  if (schema.$ref) {
    const target = (schema.$ref as string).replace(/^#\//, '').split('/').reduce<any>((node, key) => node?.[key], doc);
    return deref(doc, target, depth + 1);
  }
  return schema;
}

/** fast-check arbitraries for a JSON schema of the documents' dialect (OpenAPI 3.0). */
function arbitraryOf(doc: Schema, raw: Schema | undefined, depth = 0): fc.Arbitrary<Json> {
  const schema = deref(doc, raw);
  const nullable = schema.nullable === true;
  const wrap = (a: fc.Arbitrary<Json>) => (nullable ? fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) }) : a);
  if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key]) && schema[key].length) return wrap(fc.oneof(...schema[key].map((s: Schema) => arbitraryOf(doc, s, depth + 1))));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) return arbitraryOf(doc, Object.assign({}, ...schema.allOf.map((s: Schema) => deref(doc, s))), depth + 1);
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'date-time') return wrap(fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()));
      if (schema.format === 'date') return wrap(fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
      if (schema.format === 'email') return wrap(fc.emailAddress());
      if (schema.format === 'uri') return wrap(fc.webUrl());
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, min + 40);
      return wrap(fc.oneof(fc.string({ minLength: min, maxLength: max }), fc.constantFrom(...HOSTILE_STRINGS)));
    }
    case 'integer':
      return wrap(fc.oneof(fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1000, 2_147_483_647) }), fc.constantFrom(0, -1, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER)));
    case 'number':
      return wrap(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(0, -0.5, 1e308, -1e308)));
    case 'boolean':
      return wrap(fc.boolean());
    case 'array':
      return depth > 4 ? fc.constant([]) : wrap(fc.array(arbitraryOf(doc, schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) }));
    case 'object':
    default: {
      if (depth > 4 || !schema.properties) return wrap(fc.constant({}));
      const required = new Set<string>(schema.required ?? []);
      const props: Record<string, fc.Arbitrary<Json>> = {};
      for (const [key, value] of Object.entries<Schema>(schema.properties)) props[key] = arbitraryOf(doc, value, depth + 1);
      return wrap(fc.record(props, { requiredKeys: [...required] }) as fc.Arbitrary<Json>);
    }
  }
}

/** The request body schema of an operation and its content type, if it takes one. */
function bodyOf(op: Operation) {
  const content = op.operation.requestBody?.content as Record<string, { schema?: Schema }> | undefined;
  if (!content) return null;
  const type = Object.keys(content)[0]!;
  return { type, schema: content[type]!.schema };
}

/**
 * Fills each path parameter with the fixture's id of that kind (so requests reach deep into the
 * handlers), or, when told, with something that is not an id.
 */
function fillPath(op: Operation, fixtures: Fixtures, r: Rng, badParam: boolean): string {
  const names = [...op.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const broken = badParam && names.length ? r.pick(names) : null;
  return op.template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === broken) return r.pick(BAD_IDS);
    return encodeURIComponent(String(fixtures.idFor(op.template, name)));
  });
}

function credentialsFor(op: Operation, fixtures: Fixtures): Record<string, string> {
  if (op.surface === 'api') return { authorization: `Bearer ${fixtures.apiKey}` };
  if (op.surface === 'session') return { cookie: fixtures.cookie };
  if (op.template === '/v1/answer') return { 'x-api-key': fixtures.answerKey };
  return { authorization: `Bearer ${fixtures.workspaceToken}` };
}

function mutate(value: Json, r: Rng, doc: Schema, schema: Schema | undefined): { kind: string; value: Json } {
  const resolved = deref(doc, schema);
  const obj = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, Json>) } : null;
  const keys = obj ? Object.keys(resolved.properties ?? obj) : [];
  const choice = r.int(7);
  if (choice === 0 && obj && (resolved.required ?? []).length) {
    delete obj[r.pick(resolved.required as string[])];
    return { kind: 'missing required field', value: obj };
  }
  if (choice === 1 && obj) return { kind: 'unknown field', value: { ...obj, [r.pick(['extra', 'isAdmin', 'id', 'constructor'])]: 1 } };
  if (choice === 2 && obj && keys.length) {
    const key = r.pick(keys);
    return { kind: 'wrong type', value: { ...obj, [key]: r.pick<Json>([123, 'text', true, [], {}, null, -1.5, [1, 2]]) } };
  }
  if (choice === 3 && obj && keys.length) return { kind: 'huge string', value: { ...obj, [r.pick(keys)]: 'x'.repeat(r.pick([70_000, 1_200_000])) } };
  if (choice === 4 && obj && keys.length) return { kind: 'hostile string', value: { ...obj, [r.pick(keys)]: r.pick(HOSTILE_STRINGS) } };
  if (choice === 5 && obj && keys.length) return { kind: 'number out of range', value: { ...obj, [r.pick(keys)]: r.pick<Json>([2_147_483_648, -2_147_483_649, 1e308, -1e-308, 9_007_199_254_740_993]) } };
  return { kind: 'not an object', value: r.pick<Json>([[], 'text', 42, null, true, [value]]) };
}

/** Builds the cases for one operation. */
function casesFor(op: Operation, docs: Record<'api' | 'v1', Schema>, fixtures: Fixtures, r: Rng, count: number, seed: number): FuzzCase[] {
  const doc = docs[op.doc];
  const body = bodyOf(op);
  const cases: FuzzCase[] = [];
  const streaming = Object.keys(op.operation.responses?.['200']?.content ?? {}).includes('text/event-stream');
  const samples: Json[] = body?.schema && body.type === 'application/json' ? fc.sample(arbitraryOf(doc, body.schema), { seed: seed + count, numRuns: count }) : [];
  // A stream with no id in its path (the caller's own, such as the unread count) never ends for a good caller:
  // it is asked without credentials (its 401 is checked like any answer).
  const endless = streaming && !op.template.includes('{');
  for (let i = 0; i < count; i++) {
    const headers = endless ? {} : credentialsFor(op, fixtures);
    // An event stream with a good id never ends: it only gets ids that are not ids.
    const badParam = streaming || r.chance(0.2);
    let url = fillPath(op, fixtures, r, badParam);
    let kind = badParam ? 'path parameter not an id' : 'generated';
    let payload: string | Buffer | undefined;
    if (body?.type === 'application/json') {
      let value: Json = samples[i] ?? {};
      if (!badParam && r.chance(0.5)) {
        const m = mutate(value, r, doc, body.schema);
        kind = m.kind;
        value = m.value;
      }
      payload = JSON.stringify(value);
      headers['content-type'] = 'application/json';
      if (r.chance(0.08)) {
        kind = 'malformed JSON';
        payload = r.pick(['{', '{"a":', '[1,2', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {"x": 1}}}', 'nul', '"\\ud800"', '{"a":1}{"b":2}', '\u0000']);
      } else if (r.chance(0.06)) {
        kind = 'wrong content type';
        headers['content-type'] = r.pick(CONTENT_TYPES);
      } else if (r.chance(0.03)) {
        kind = 'no content type';
        delete headers['content-type'];
      }
    } else if (body) {
      // multipart uploads: malformed multipart, or JSON where a file belongs
      kind = 'malformed upload';
      headers['content-type'] = r.pick(['multipart/form-data; boundary=zz', 'multipart/form-data', 'application/json']);
      payload = r.pick(['--zz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', '{"file": 1}', '--zz--\r\n', '']);
    } else if (r.chance(0.15)) {
      kind = 'body where none belongs';
      headers['content-type'] = 'application/json';
      payload = JSON.stringify({ unexpected: true });
    }
    if (r.chance(0.1)) {
      kind = 'unknown or wrong query parameter';
      const params = (op.operation.parameters ?? []).filter((p: Schema) => p.in === 'query').map((p: Schema) => p.name as string);
      url += `?${params.length && r.chance(0.6) ? `${r.pick(params)}=${r.pick(['abc', '-1', '99999999999', '', '%ED%A0%80', '%00', '%ff', 'true', '%5B%5D'])}` : 'nosuchparam=1'}`;
    }
    if (r.chance(0.05)) {
      kind = 'wrong credentials';
      for (const h of ['authorization', 'cookie', 'x-api-key']) delete headers[h];
      const bogus = r.pick([{ authorization: 'Bearer tsk_nope' }, { authorization: 'Basic abc' }, { 'x-api-key': 'ans_x' }, { cookie: 'tb_session=nope' }, {}]);
      Object.assign(headers, bogus);
    }
    cases.push({ kind, method: op.method, url, headers, payload, operation: op });
  }
  return cases;
}

function unknownRouteCases(fixtures: Fixtures, r: Rng, count: number): FuzzCase[] {
  const prefixes = ['/api', '/v1', '/agent', '/account', '/admin', '/auth', ''];
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const prefix = r.pick(prefixes);
    const url = `${prefix}/${r.pick(['no/such/route', 'boards/1/nothing', '%ff', '..%2f..%2f', 'x'.repeat(3000), 'tickets/1/x'])}`;
    const method = r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    const headers: Record<string, string> = prefix === '/v1' ? { 'x-api-key': fixtures.answerKey } : { authorization: `Bearer ${fixtures.apiKey}` };
    const withBody = method !== 'GET' && r.chance(0.7);
    if (withBody) headers['content-type'] = 'application/json';
    cases.push({ kind: 'unknown route', method, url, headers, payload: withBody ? '{"a":1}' : undefined, operation: null });
  }
  return cases;
}

/** ajv over the documents' schemas; `#/components/...` refs resolved against the right document. */
function responseValidators(docs: Record<'api' | 'v1', Schema>) {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  // ajv-formats is CommonJS: its function is the default export's default under NodeNext.
  (formats as unknown as { default: (a: Ajv) => void }).default(ajv);
  const rewrite = (node: any, doc: string): any => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, doc));
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\//, `${doc}#/`) : rewrite(v, doc);
      // OpenAPI 3.0's nullable, which ajv reads only next to a type.
      if (out.nullable === true && !out.type && !out.$ref) delete out.nullable;
      return out;
    }
    return node;
  };
  for (const name of ['api', 'v1'] as const) ajv.addSchema({ $id: name, components: rewrite(docs[name].components, name) });
  const cache = new Map<string, ValidateFunction | null>();
  return (op: Operation, status: number): ValidateFunction | null | 'undeclared' => {
    const responses = op.operation.responses as Record<string, Schema>;
    const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (!declared) return 'undeclared';
    const key = `${op.method} ${op.template} ${status}`;
    if (!cache.has(key)) {
      const schema = declared.content?.['application/json']?.schema;
      cache.set(key, schema ? ajv.compile(rewrite(schema, op.doc)) : null);
    }
    return cache.get(key)!;
  };
}

/** Cases that change what other cases stand on (sessions, tokens, deletions) go last. */
const destructiveness = (c: FuzzCase) =>
  c.url.startsWith('/auth/logout') ? 3 : c.method === 'DELETE' || /\/(token|block|rotate-secret)$/.test(c.url.split('?')[0]!) ? 2 : 0;

export async function runFuzz({
  app,
  fixtures,
  seed,
  perOperation,
  slowMs = 2000,
  onProgress,
}: {
  app: FastifyInstance;
  fixtures: Fixtures;
  seed: number;
  perOperation: number;
  slowMs?: number;
  onProgress?: (done: number, total: number) => void;
}): Promise<FuzzResult> {
  const docs = {
    api: (await app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json() as Schema,
    v1: (await app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json() as Schema,
  };
  const r = rng(seed);
  const operations = operationsOf(docs.api, docs.v1);
  const cases = operations.flatMap((op, i) => casesFor(op, docs, fixtures, r, perOperation, seed + i * 1000));
  cases.push(...unknownRouteCases(fixtures, r, Math.max(10, perOperation * 2)));
  cases.sort((a, b) => destructiveness(a) - destructiveness(b));
  const validatorFor = responseValidators(docs);
  const result: FuzzResult = { cases: cases.length, byKind: {}, statuses: {}, failures: [], slowestMs: 0 };

  for (const [index, c] of cases.entries()) {
    result.byKind[c.kind] = (result.byKind[c.kind] ?? 0) + 1;
    const label = `${c.method} ${c.url.length > 120 ? `${c.url.slice(0, 120)}…` : c.url} [${c.kind}]${c.payload !== undefined ? ` body ${String(c.payload).slice(0, 160)}` : ''}`;
    const t0 = performance.now();
    const res = await app.inject({ method: c.method as 'GET', url: c.url, headers: c.headers, payload: c.payload });
    const ms = performance.now() - t0;
    result.slowestMs = Math.max(result.slowestMs, ms);
    result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1;
    const fail = (problem: string) => result.failures.push({ case: label, problem });
    if (res.statusCode >= 500) fail(`${res.statusCode} ${res.body.slice(0, 300)}`);
    if (ms > slowMs) fail(`took ${ms.toFixed(0)} ms`);
    if (!res.headers['x-request-id']) fail('no x-request-id');
    const isV1 = c.url.startsWith('/v1/') || c.url === '/v1';
    const json = (() => {
      try {
        return String(res.headers['content-type'] ?? '').includes('json') && res.body ? (JSON.parse(res.body) as Json) : undefined;
      } catch {
        return undefined;
      }
    })();
    if (res.statusCode >= 400) {
      const body = json as Record<string, unknown> | undefined;
      const shaped = isV1
        ? body && typeof body.error === 'string' && typeof body.message === 'string' && Object.keys(body).length === 2
        : body && typeof body.error === 'string' && Object.keys(body).length === 1;
      if (!shaped) fail(`${res.statusCode} error body not in the surface's shape: ${res.body.slice(0, 200)}`);
    }
    if (c.operation) {
      const validate = validatorFor(c.operation, res.statusCode);
      if (validate === 'undeclared') fail(`status ${res.statusCode} is not declared for ${c.operation.method} ${c.operation.template}: ${res.body.slice(0, 200)}`);
      else if (validate && json !== undefined && !validate(json)) {
        fail(`${res.statusCode} body breaks its declared schema: ${JSON.stringify(validate.errors?.slice(0, 2))} in ${res.body.slice(0, 200)}`);
      }
    }
    onProgress?.(index + 1, cases.length);
  }
  return result;
}
