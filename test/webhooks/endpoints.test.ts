import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/run-command.js';
import { assertDeliverableUrl, guardedLookup, isPrivateAddress, type LookupAll } from '../../src/webhooks/destination.js';
import { loginCookie, makeUser } from '../factories.js';
import { buildTestApp, useTestApp } from '../helper.js';
import { startReceiver } from '../webhook-receiver.js';
import { makeWorkspace } from '../workspace-factories.js';
import { deliveries, eventually, webhookWorkspace } from './webhook-fixtures.js';

// Private destinations refused, as in production.
const t = useTestApp({ WEBHOOK_POLL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '1h' });

describe('private destinations (SPEC §8)', () => {
  it.each([
    ['127.0.0.1', true], ['127.255.0.1', true], ['10.1.2.3', true], ['172.16.0.1', true], ['172.31.255.255', true], ['192.168.1.1', true],
    ['169.254.169.254', true], ['100.64.0.1', true], ['100.127.255.255', true], ['0.0.0.0', true], ['::1', true], ['::', true],
    ['fe80::1', true], ['fc00::1', true], ['fd12:3456::1', true], ['::ffff:127.0.0.1', true], ['::ffff:10.0.0.1', true], ['224.0.0.1', true],
    ['8.8.8.8', false], ['172.32.0.1', false], ['100.128.0.1', false], ['192.169.0.1', false], ['2606:4700::1111', false], ['::ffff:8.8.8.8', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('refuses them at creation (400 naming url), names that resolve to them included', async () => {
    const owner = await makeUser(t.db);
    const workspace = await makeWorkspace(t.db, { ownerId: owner.id });
    const { cookie } = await loginCookie(t.app, owner.email, owner.password);
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/hooks', 'http://[::1]/', 'http://10.0.0.8/', 'http://169.254.169.254/latest', 'https://100.64.1.1/', 'http://[fc00::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/']) {
      const res = await t.app.inject({ method: 'POST', url: `/agent/workspaces/${workspace.id}/webhooks`, headers: { cookie }, payload: { url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toMatch(/^url: /);
      const cli = await runCommand(['webhook', 'create', '--workspace', String(workspace.id), '--url', url], { db: t.db, config: t.config, events: t.app.events, effects: t.app.effects });
      expect(cli.exitCode, url).toBe(1);
      expect(cli.body.error, url).toMatch(/url/);
    }
    for (const [url, message] of [['ftp://files.example/x', /http/], ['http://user:pw@hooks.example/', /user name or password/], ['not a url', /http/]] as const) {
      const res = await t.app.inject({ method: 'POST', url: `/agent/workspaces/${workspace.id}/webhooks`, headers: { cookie }, payload: { url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toMatch(message);
    }
    expect(await t.db.prisma.webhookEndpoint.count({ where: { workspaceId: workspace.id } })).toBe(0);
  });

  it('says a name resolves to a private network address without naming the address (members would learn the internal DNS)', async () => {
    const internal: LookupAll = (_host, _options, callback) => callback(null, [{ address: '10.20.30.40', family: 4 }]);
    const refusal = await assertDeliverableUrl('https://billing.corp.example/hooks', false, { lookup: internal }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(/^url: this address is on a private network \(billing\.corp\.example resolves to a private network address\), .*WEBHOOK_ALLOW_PRIVATE=true/);
    expect(refusal).not.toContain('10.20.30.40');
    // At delivery too: the attempt's error is in the delivery log members read.
    const atDelivery = await new Promise<Error | null>((done) => guardedLookup(false, { lookup: internal })('billing.corp.example', {}, (error) => done(error)));
    expect(atDelivery?.message).toMatch(/billing\.corp\.example resolves to a private network address/);
    expect(atDelivery?.message).not.toContain('10.20.30.40');
    // Through the API: localhost is refused without its loopback address; a literal address the caller typed is named.
    const owner = await makeUser(t.db);
    const workspace = await makeWorkspace(t.db, { ownerId: owner.id });
    const { cookie } = await loginCookie(t.app, owner.email, owner.password);
    const named = await t.app.inject({ method: 'POST', url: `/agent/workspaces/${workspace.id}/webhooks`, headers: { cookie }, payload: { url: 'http://localhost/hooks' } });
    expect(named.json().error).toMatch(/^url: this address is on a private network \(localhost resolves to a private network address\)/);
    expect(named.body).not.toMatch(/127\.0\.0\.1|::1/);
    const literal = await t.app.inject({ method: 'POST', url: `/agent/workspaces/${workspace.id}/webhooks`, headers: { cookie }, payload: { url: 'http://10.0.0.8/' } });
    expect(literal.json().error).toMatch(/^url: this address is on a private network \(10\.0\.0\.8 is a private or loopback address\)/);
  });

  it('refuses them again at delivery, after resolving the name (it may resolve elsewhere later)', async () => {
    const receiver = await startReceiver();
    try {
      // Created while its name resolved to a public address; the name points at loopback now.
      const w = await webhookWorkspace(t, 'https://8.8.8.8/hooks');
      await t.db.prisma.webhookEndpoint.update({ where: { id: w.endpoint.id }, data: { url: `http://localhost:${receiver.port}/hooks` } });
      await w.createTicket();
      const [d] = await eventually(async () => {
        const list = await deliveries(t, w.workspaceId, w.endpoint.id);
        expect(list[0]?.attempts).toHaveLength(1);
        return list;
      });
      expect(d!.attempts[0]).toMatchObject({ statusCode: null, succeeded: false, error: expect.stringMatching(/localhost resolves to a private network address/) });
      expect(d!.status).toBe('pending');
      // A literal address is refused without a lookup.
      await t.db.prisma.webhookEndpoint.update({ where: { id: w.endpoint.id }, data: { url: receiver.url } });
      await w.createTicket();
      await eventually(async () => {
        const list = await deliveries(t, w.workspaceId, w.endpoint.id);
        expect(list[0]?.attempts[0]?.error).toMatch(/127\.0\.0\.1 is a private or loopback address/);
      });
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook endpoints in the support console', () => {
  async function consoleSetup() {
    const owner = await makeUser(t.db);
    const member = await makeUser(t.db);
    const outsider = await makeUser(t.db);
    const workspace = await makeWorkspace(t.db, { ownerId: owner.id, members: [{ userId: member.id, role: 'member' }] });
    const as = async (user: { email: string; password: string }) => {
      const { cookie } = await loginCookie(t.app, user.email, user.password);
      return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object) =>
        t.app.inject({ method, url: `/agent/workspaces/${workspace.id}/webhooks${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
    };
    return { workspace, owner: await as(owner), member: await as(member), outsider: await as(outsider) };
  }

  it('creates, lists, changes and deletes endpoints; the secret is shown at creation and rotation only', async () => {
    const { owner } = await consoleSetup();
    const created = await owner('POST', '', { url: 'https://8.8.8.8/hooks', description: 'CRM' });
    expect(created.statusCode).toBe(201);
    const { endpoint, secret } = created.json();
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toEqual({
      id: expect.any(Number), workspaceId: expect.any(Number), url: 'https://8.8.8.8/hooks', description: 'CRM', events: null, enabled: true,
      disabledReason: null, disabledAt: null, failingSince: null, secretRotationEndsAt: null, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    const list = await owner('GET', '');
    expect(list.json()).toEqual({ endpoints: [endpoint] });
    expect(list.body).not.toContain(secret.slice(6));

    const paused = await owner('PATCH', `/${endpoint.id}`, { enabled: false, events: ['ticket.updated', 'ticket.updated'] });
    expect(paused.json()).toMatchObject({ enabled: false, disabledReason: 'manual', disabledAt: expect.any(String), events: ['ticket.updated'] });
    const resumed = await owner('PATCH', `/${endpoint.id}`, { enabled: true, events: null });
    expect(resumed.json()).toMatchObject({ enabled: true, disabledReason: null, events: null });

    const rotated = await owner('POST', `/${endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(201);
    expect(rotated.json().secret).not.toBe(secret);
    expect(rotated.json().endpoint.secretRotationEndsAt).toEqual(expect.any(String));
    expect((await owner('GET', `/${endpoint.id}`)).body).not.toContain(rotated.json().secret.slice(6));

    expect((await owner('DELETE', `/${endpoint.id}`)).statusCode).toBe(204);
    expect((await owner('GET', `/${endpoint.id}`)).statusCode).toBe(404);
  });

  it('lets members read and only owners and admins change; outsiders and other workspaces get 404', async () => {
    const a = await consoleSetup();
    const b = await consoleSetup();
    const { endpoint } = (await a.owner('POST', '', { url: 'https://8.8.8.8/a' })).json();
    const other = (await b.owner('POST', '', { url: 'https://8.8.8.8/b' })).json().endpoint;
    expect((await a.member('GET', '')).statusCode).toBe(200);
    expect((await a.member('GET', `/${endpoint.id}/deliveries`)).statusCode).toBe(200);
    for (const [method, path, body] of [['POST', '', { url: 'https://8.8.8.8/x' }], ['PATCH', `/${endpoint.id}`, { enabled: false }], ['DELETE', `/${endpoint.id}`], ['POST', `/${endpoint.id}/rotate-secret`]] as const) {
      expect((await a.member(method, path, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    expect((await a.outsider('GET', '')).statusCode).toBe(404);
    expect((await a.owner('GET', `/${other.id}`)).statusCode).toBe(404);
    expect((await a.owner('PATCH', `/${other.id}`, { enabled: false })).statusCode).toBe(404);
    expect((await a.owner('GET', `/${other.id}/deliveries`)).statusCode).toBe(404);
  });

  it('refuses bad input with 400 naming the field', async () => {
    const { owner } = await consoleSetup();
    const { endpoint } = (await owner('POST', '', { url: 'https://8.8.8.8/a' })).json();
    const cases: [string, string, object | undefined, RegExp][] = [
      ['POST', '', { url: 'https://8.8.8.8/a', events: ['ticket.deleted'] }, /events/],
      ['POST', '', { url: 'https://8.8.8.8/a', extra: 1 }, /extra|unrecognized/i],
      ['POST', '', {}, /url/],
      ['POST', '', { url: `https://8.8.8.8/${'a'.repeat(2000)}` }, /url/],
      ['PATCH', `/${endpoint.id}`, { enabled: 'yes' }, /enabled/],
      ['POST', `/${endpoint.id}/redeliver`, { since: 'yesterday' }, /since/],
      ['GET', `/${endpoint.id}/deliveries?limit=1000`, undefined, /limit/],
      ['GET', '/abc', undefined, /endpointId|Endpoint/],
      ['POST', '', { url: `https://8.8.8.8/${'é'.repeat(1980)}` }, /url: must be at most 2000 characters once encoded/],
      ['POST', '', { url: 'https://8.8.8.8/a', events: [] }, /events/],
      ['POST', `/${endpoint.id}/redeliver`, { since: '0000-01-01T00:00:00Z' }, /since/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await owner(method as 'GET', path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(400);
      expect(res.json().error, `${method} ${path}`).toMatch(message);
    }
  });

  it('shows the delivery log and redelivers from it now, with the same webhook-id; a disabled endpoint is 409', async () => {
    const receiver = await startReceiver((_r, i) => (i === 0 ? { status: 500, body: 'down for maintenance' } : { status: 200, body: 'ok' }));
    const allowed = await buildTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1h', WEBHOOK_POLL_MS: '100' });
    try {
      const w = await webhookWorkspace(allowed, receiver.url);
      const { cookie } = await loginCookie(allowed.app, w.owner.email, w.owner.password);
      const call = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
        allowed.app.inject({ method, url: `/agent/workspaces/${w.workspaceId}/webhooks/${w.endpoint.id}${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
      await w.createTicket();
      // Failed once; the next attempt is an hour away (WEBHOOK_RETRY_SCHEDULE=1h).
      const failed = await eventually(async () => {
        const res = await call('GET', '/deliveries');
        expect(res.json().deliveries[0]?.attempts).toHaveLength(1);
        return res.json().deliveries[0];
      });
      expect(failed.status).toBe('pending');
      expect(Date.parse(failed.nextAttemptAt) - Date.now()).toBeGreaterThan(3_000_000);
      expect(failed).toMatchObject({ eventType: 'ticket.created', payload: { type: 'ticket.created', data: { subject: 'Cannot export invoices' } } });
      expect(failed.attempts).toEqual([expect.objectContaining({ statusCode: 500, responseExcerpt: 'down for maintenance', succeeded: false })]);

      const again = await call('POST', `/deliveries/${failed.id}/redeliver`);
      expect(again.statusCode).toBe(202);
      const got = await receiver.waitFor(2);
      expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
      await eventually(async () => expect((await call('GET', '/deliveries?status=succeeded')).json().deliveries).toHaveLength(1));
      expect((await call('POST', '/deliveries/999999/redeliver')).statusCode).toBe(404);

      expect((await call('PATCH', '', { enabled: false })).statusCode).toBe(200);
      expect((await call('POST', '/redeliver', { since: new Date(0).toISOString() })).statusCode).toBe(409);
      expect((await call('POST', `/deliveries/${failed.id}/redeliver`)).statusCode).toBe(409);
    } finally {
      await allowed.close();
      await receiver.close();
    }
  });
});
