import { describe, expect, it } from 'vitest';
import { loginCookie, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace } from './answer-fixtures.js';

const t = useTestApp();

async function session(email: string, password: string) {
  const { cookie } = await loginCookie(t.app, email, password);
  return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}

describe('support console: workspace detail, members, try the agent, ticket detail', () => {
  it('shows the workspace with its token prefix only after one is generated, never the token', async () => {
    const w = await answerWorkspace(t);
    const owner = await session(w.owner.email, w.owner.password);
    const before = (await owner('GET', `/agent/workspaces/${w.workspaceId}`)).json();
    expect(before).toMatchObject({ id: w.workspaceId, role: 'owner', token: null });
    const generated = (await owner('POST', `/agent/workspaces/${w.workspaceId}/token`)).json();
    const after = (await owner('GET', `/agent/workspaces/${w.workspaceId}`)).json();
    expect(after.token.prefix).toBe(generated.prefix);
    expect(JSON.stringify(after)).not.toContain(generated.token);
  });

  it('owners and admins manage members; only an owner touches owners; the last owner stays', async () => {
    const w = await answerWorkspace(t);
    const owner = await session(w.owner.email, w.owner.password);
    const [admin, reader, outsider] = [await makeUser(t.db), await makeUser(t.db), await makeUser(t.db)];
    const base = `/agent/workspaces/${w.workspaceId}/members`;

    expect((await owner('POST', base, { email: admin.email, role: 'admin' })).statusCode).toBe(201);
    const added = await owner('POST', base, { email: reader.email.toUpperCase() });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ userId: reader.id, role: 'member', active: true });
    expect((await owner('POST', base, { email: reader.email })).statusCode).toBe(409);
    expect((await owner('POST', base, { email: 'nobody@example.com' })).json().error).toMatch(/^email: no user/);
    expect((await owner('POST', base, { email: reader.email, role: 'boss' })).statusCode).toBe(400);

    const asAdmin = await session(admin.email, admin.password);
    expect((await asAdmin('POST', base, { email: outsider.email, role: 'owner' })).statusCode).toBe(403);
    expect((await asAdmin('PATCH', `${base}/${w.owner.id}`, { role: 'member' })).statusCode).toBe(403);
    expect((await asAdmin('PATCH', `${base}/${reader.id}`, { role: 'admin' })).json()).toMatchObject({ role: 'admin' });

    const asReader = await session(reader.email, reader.password);
    // reader is an admin now; demote back and check a plain member is read-only
    expect((await owner('PATCH', `${base}/${reader.id}`, { role: 'member' })).statusCode).toBe(200);
    expect((await asReader('GET', base)).json().members).toHaveLength(3);
    expect((await asReader('POST', base, { email: outsider.email })).statusCode).toBe(403);

    const asOutsider = await session(outsider.email, outsider.password);
    expect((await asOutsider('GET', base)).statusCode).toBe(404);

    expect((await owner('PATCH', `${base}/${w.owner.id}`, { role: 'admin' })).statusCode).toBe(409);
    expect((await owner('DELETE', `${base}/${w.owner.id}`)).statusCode).toBe(409);
    expect((await owner('PATCH', `${base}/${admin.id}`, { role: 'owner' })).statusCode).toBe(200);
    expect((await owner('PATCH', `${base}/${w.owner.id}`, { role: 'member' })).statusCode).toBe(200);
    expect((await asAdmin('DELETE', `${base}/${reader.id}`)).statusCode).toBe(204);
    expect((await asAdmin('DELETE', `${base}/${reader.id}`)).statusCode).toBe(404);
  });

  it('two owners demoting each other at once leave one owner', async () => {
    const w = await answerWorkspace(t);
    const second = await makeUser(t.db);
    const owner = await session(w.owner.email, w.owner.password);
    const base = `/agent/workspaces/${w.workspaceId}/members`;
    await owner('POST', base, { email: second.email, role: 'owner' });
    const other = await session(second.email, second.password);
    const results = await Promise.all([owner('PATCH', `${base}/${second.id}`, { role: 'member' }), other('PATCH', `${base}/${w.owner.id}`, { role: 'member' })]);
    // The loser is refused either as no longer an owner (403) or as the last owner's demoter (409).
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, expect.toBeOneOf([403, 409])]);
    const owners = await t.db.prisma.workspaceMember.count({ where: { workspaceId: w.workspaceId, role: 'owner' } });
    expect(owners).toBe(1);
  });

  it('"try the agent" answers as /v1/answer does, on the channel console, for any member', async () => {
    const w = await answerWorkspace(t);
    const member = await makeUser(t.db);
    const owner = await session(w.owner.email, w.owner.password);
    await owner('POST', `/agent/workspaces/${w.workspaceId}/members`, { email: member.email });
    const asMember = await session(member.email, member.password);
    const res = await asMember('POST', `/agent/workspaces/${w.workspaceId}/try`, { message: 'how do I reset my password', conversationRef: 'try-1' });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.sources.length).toBeGreaterThan(0);
    expect(answer).toHaveProperty('needs_human');
    const list = (await owner('GET', `/agent/workspaces/${w.workspaceId}/conversations?channel=console`)).json();
    expect(list.conversations.map((c: { id: string }) => c.id)).toContain(answer.conversationId);
    // the channel is the console's, whatever the body says
    expect((await asMember('POST', `/agent/workspaces/${w.workspaceId}/try`, { message: 'hi', channel: 'email' })).statusCode).toBe(400);
    expect((await asMember('POST', `/agent/workspaces/${w.workspaceId}/try`, { message: '' })).statusCode).toBe(400);
    const outsider = await makeUser(t.db);
    const asOutsider = await session(outsider.email, outsider.password);
    expect((await asOutsider('POST', `/agent/workspaces/${w.workspaceId}/try`, { message: 'hello' })).statusCode).toBe(404);
  });

  it('shows one ticket of the workspace; another workspace\'s is 404', async () => {
    const w = await answerWorkspace(t);
    const owner = await session(w.owner.email, w.owner.password);
    const { token } = (await owner('POST', `/agent/workspaces/${w.workspaceId}/token`)).json();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/tickets',
      headers: { authorization: `Bearer ${token}` },
      payload: { subject: 'Printer on fire', requester: { email: 'c@example.com' } },
    });
    expect(created.statusCode).toBe(201);
    const ticket = (await owner('GET', `/agent/workspaces/${w.workspaceId}/tickets/${created.json().id}`)).json();
    expect(ticket).toMatchObject({ id: created.json().id, subject: 'Printer on fire' });
    const other = await answerWorkspace(t);
    const otherOwner = await session(other.owner.email, other.owner.password);
    expect((await otherOwner('GET', `/agent/workspaces/${other.workspaceId}/tickets/${created.json().id}`)).statusCode).toBe(404);
    expect((await owner('GET', `/agent/workspaces/${w.workspaceId}/tickets/abc`)).statusCode).toBe(404);
  });
});
