import { describe, expect, it } from 'vitest';
import { loginCookie, makeBoard, makeKey, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';

/** /account (name, e-mail, password, sessions), /auth/session, and invitation and set-up links (/auth/join). */
const t = useTestApp({ RATE_LIMIT_MAX: '1000000' });

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const send = (method: Method, url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers: { 'user-agent': 'TestBrowser/1.0', ...headers }, ...(payload ? { payload } : {}) });

describe('/account', () => {
  it('changes the name at once; on a server without mail, a new e-mail address is 403 (site admins change it) and its own address is no change', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    const renamed = await send('PATCH', '/account', session, { name: '  Ada Lovelace ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().user).toMatchObject({ id: user.id, name: 'Ada Lovelace', email: user.email });
    expect((await send('GET', '/auth/me', session)).json().user.name).toBe('Ada Lovelace');

    // No SMTP here: nothing could confirm a new address (test/accounts/email-change.test.ts has the mailed flow).
    const refused = await send('PATCH', '/account', session, { email: `new-${user.id}@example.com`, currentPassword: user.password });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/^email: this server sends no mail/);
    expect((await send('GET', '/auth/me', session)).json().user.email).toBe(user.email);
    // Its own address needs nothing.
    expect((await send('PATCH', '/account', session, { email: user.email })).statusCode).toBe(200);
  });

  it("keeps the time zone and clock the web app shows dates in, back with the signed-in user; null is the browser's", async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    expect((await send('GET', '/auth/me', session)).json().user).toMatchObject({ timeZone: null, hour12: null });
    const set = await send('PATCH', '/account', session, { timeZone: 'America/Sao_Paulo', hour12: false });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user).toMatchObject({ timeZone: 'America/Sao_Paulo', hour12: false, name: user.name });
    // The session's cached user is read again: /auth/me and /auth/session say so at once.
    expect((await send('GET', '/auth/me', session)).json().user).toMatchObject({ timeZone: 'America/Sao_Paulo', hour12: false });
    expect((await send('GET', '/auth/session', session)).json().user).toMatchObject({ timeZone: 'America/Sao_Paulo', hour12: false });
    expect((await send('PATCH', '/account', session, { timeZone: null })).json().user).toMatchObject({ timeZone: null, hour12: false });
    // Signing in again returns them too (the page takes its settings from that answer).
    await send('PATCH', '/account', session, { timeZone: 'Asia/Kolkata' });
    const login = await send('POST', '/auth/login', {}, { email: user.email, password: user.password });
    expect(login.json().user).toMatchObject({ timeZone: 'Asia/Kolkata', hour12: false });
  });

  it('answers 400 naming the field for bad input, never a 500; 401 without a session and for an API key', async () => {
    const user = await makeUser(t.db);
    const session = await loginCookie(t.app, user.email, user.password);
    for (const [method, url, body, message] of [
      ['PATCH', '/account', {}, /send name, email, timeZone or hour12$/],
      ['PATCH', '/account', { timeZone: 'Mars/Olympus' }, /^timeZone: must be an IANA time zone such as Europe\/Paris$/],
      ['PATCH', '/account', { hour12: 'yes' }, /^hour12: /],
      ['PATCH', '/account', { name: '' }, /^name: must be 1-100 characters$/],
      ['PATCH', '/account', { email: 'nope' }, /^email: must be an e-mail address$/],
      ['PATCH', '/account', { name: 'x', role: 'admin' }, /^role: unknown field$/],
      ['PUT', '/account/password', { newPassword: 'long enough pw' }, /^currentPassword: required$/],
      ['PUT', '/account/password', { currentPassword: user.password }, /^newPassword: required$/],
      ['PUT', '/account/password', { currentPassword: user.password, newPassword: 'short' }, /^newPassword: must be at least 8 characters$/],
      ['PUT', '/account/password', { currentPassword: user.password, newPassword: user.password }, /^newPassword: must differ/],
      ['DELETE', '/account/sessions/not-a-session', undefined, /^params\.id: must be a session id/],
    ] as const) {
      const res = await send(method, url, session, body);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    const { auth } = await makeKey(t.db, user.id, { permission: 'write' });
    for (const headers of [{}, auth]) {
      expect((await send('GET', '/account/sessions', headers)).statusCode).toBe(401);
      expect((await send('PATCH', '/account', headers, { name: 'x' })).statusCode).toBe(401);
      expect((await send('PUT', '/account/password', headers, { currentPassword: 'a', newPassword: 'long enough pw' })).statusCode).toBe(401);
    }
  });

  it('changes the password: the current one is required, the other sessions end and this one stays', async () => {
    const user = await makeUser(t.db);
    const here = await loginCookie(t.app, user.email, user.password);
    const elsewhere = await loginCookie(t.app, user.email, user.password);
    const wrong = await send('PUT', '/account/password', here, { currentPassword: 'not my password', newPassword: 'a brand new password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'currentPassword: that is not your current password' });

    const changed = await send('PUT', '/account/password', here, { currentPassword: user.password, newPassword: 'a brand new password' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ endedSessions: 1 });
    expect((await send('GET', '/auth/me', here)).statusCode).toBe(200);
    expect((await send('GET', '/auth/me', elsewhere)).statusCode).toBe(401);
    expect((await send('POST', '/auth/login', {}, { email: user.email, password: user.password })).statusCode).toBe(401);
    expect((await send('POST', '/auth/login', {}, { email: user.email, password: 'a brand new password' })).statusCode).toBe(200);
  });

  it('lists the sessions (created, last seen, user agent, this one marked) and ends one, or all the others', async () => {
    const user = await makeUser(t.db);
    const here = await loginCookie(t.app, user.email, user.password);
    await send('POST', '/auth/login', { 'user-agent': 'Phone/2.0' }, { email: user.email, password: user.password });
    await send('POST', '/auth/login', { 'user-agent': 'Tablet/3.0' }, { email: user.email, password: user.password });
    const listed = await send('GET', '/account/sessions', here);
    expect(listed.statusCode).toBe(200);
    const sessions = listed.json().sessions as { id: string; current: boolean; userAgent: string | null; createdAt: string; lastSeenAt: string | null; ip: string | null }[];
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.map((s) => s.userAgent).sort()).toEqual(['Phone/2.0', 'Tablet/3.0', null]); // the first signed in without a User-Agent
    // The session just used was seen now (to the minute).
    const current = sessions.find((s) => s.current)!;
    await expect.poll(async () => (await t.db.prisma.session.findUnique({ where: { id: current.id } }))?.lastSeenAt).not.toBeNull();
    expect(Object.keys(current).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id', 'ip', 'lastSeenAt', 'userAgent']);

    expect((await send('DELETE', `/account/sessions/${current.id}`, here)).json()).toEqual({ error: 'session: this is the session you are using; sign out instead' });
    const phone = sessions.find((s) => s.userAgent === 'Phone/2.0')!;
    expect((await send('DELETE', `/account/sessions/${phone.id}`, here)).statusCode).toBe(204);
    expect((await send('DELETE', `/account/sessions/${phone.id}`, here)).statusCode).toBe(404);
    // Another user's session is not found, not ended.
    const stranger = await makeUser(t.db);
    const strangerSession = await loginCookie(t.app, stranger.email, stranger.password);
    const theirs = (await send('GET', '/account/sessions', strangerSession)).json().sessions[0].id;
    expect((await send('DELETE', `/account/sessions/${theirs}`, here)).statusCode).toBe(404);
    expect((await send('GET', '/auth/me', strangerSession)).statusCode).toBe(200);

    expect((await send('POST', '/account/sessions/end-others', here)).json()).toEqual({ ended: 1 });
    expect((await send('GET', '/account/sessions', here)).json().sessions.map((s: { current: boolean }) => s.current)).toEqual([true]);
  });
});

describe('GET /auth/session', () => {
  it('answers 200 with user null for a visitor or an ended session, and the user for a live one', async () => {
    const user = await makeUser(t.db);
    // `mail`: whether this server sends mail (the sign-in page offers "Forgot password?" only then).
    expect((await send('GET', '/auth/session')).json()).toEqual({ user: null, setupNeeded: false, mail: false });
    const session = await loginCookie(t.app, user.email, user.password);
    const res = await send('GET', '/auth/session', session);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: user.id, email: user.email, name: user.name, siteAdmin: false, timeZone: null, hour12: null }, setupNeeded: false, mail: false });
    await send('POST', '/auth/logout', session);
    const ended = await send('GET', '/auth/session', session);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().user).toBeNull();
    expect((await send('GET', '/auth/session', { cookie: 'tb_session=garbage' })).json().user).toBeNull();
  });
});

describe('invitation links', () => {
  async function invite(email: string) {
    const admin = await makeUser(t.db, { name: 'Board Admin' });
    const board = await makeBoard(t.db, admin.id, [], 'Launch');
    const session = await loginCookie(t.app, admin.email, admin.password);
    const res = await send('POST', `/api/boards/${board.id}/members`, session, { email, role: 'member' });
    expect(res.statusCode, res.body).toBe(202);
    const url = res.json().invitation.url as string;
    return { admin, board, session, url, token: url.split('/join/')[1]! };
  }

  it('shows what the link opens, then makes the account a member of the board and signs it in', async () => {
    const email = `bob-${Date.now()}@example.com`;
    const { board, token } = await invite(email);
    // Stored as a hash only.
    const row = await t.db.prisma.invitation.findFirstOrThrow({ where: { email } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);

    const shown = await send('GET', `/auth/join/${token}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().link).toMatchObject({ kind: 'invitation', email, board: { id: board.id, name: 'Launch' }, role: 'member', invitedBy: 'Board Admin' });

    expect((await send('POST', `/auth/join/${token}`, {}, { name: 'Bob', password: 'short' })).json()).toEqual({ error: 'password: must be at least 8 characters' });
    expect((await send('POST', `/auth/join/${token}`, {}, { password: 'long enough pw' })).json()).toEqual({ error: 'name: required' });
    const joined = await send('POST', `/auth/join/${token}`, {}, { name: 'Bob Builder', password: 'long enough pw' });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json()).toEqual({ user: { id: expect.any(Number), email, name: 'Bob Builder', siteAdmin: false, timeZone: null, hour12: null }, boardId: board.id });
    const cookie = String(joined.headers['set-cookie']).split(';')[0]!;
    const boardRes = await send('GET', `/api/boards/${board.id}`, { cookie });
    expect(boardRes.statusCode).toBe(200);
    expect(boardRes.json().role).toBe('member');
    // Used up.
    expect((await send('GET', `/auth/join/${token}`)).statusCode).toBe(404);
    expect((await send('POST', `/auth/join/${token}`, {}, { name: 'Again', password: 'long enough pw' })).statusCode).toBe(404);
  });

  it('expires (410 naming who to ask); a renewed link replaces the old one; a revoked one is gone', async () => {
    const email = `eve-${Date.now()}@example.com`;
    const { board, session, token } = await invite(email);
    const renewed = await send('POST', `/api/boards/${board.id}/invitations/${encodeURIComponent(email)}/link`, session);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = (renewed.json().invitation.url as string).split('/join/')[1]!;
    expect(fresh).not.toBe(token);
    expect((await send('GET', `/auth/join/${token}`)).statusCode).toBe(404);
    expect((await send('GET', `/auth/join/${fresh}`)).statusCode).toBe(200);

    await t.db.prisma.invitation.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const gone = await send('GET', `/auth/join/${fresh}`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error).toMatch(/^link: expired on \d{4}-\d{2}-\d{2}; ask Board Admin for a new one$/);
    expect((await send('POST', `/auth/join/${fresh}`, {}, { name: 'Eve', password: 'long enough pw' })).statusCode).toBe(410);
    // An expired invitation gets no new link.
    expect((await send('POST', `/api/boards/${board.id}/invitations/${encodeURIComponent(email)}/link`, session)).statusCode).toBe(404);

    const other = `mal-${Date.now()}@example.com`;
    const second = await send('POST', `/api/boards/${board.id}/members`, session, { email: other, role: 'observer' });
    const revokedToken = (second.json().invitation.url as string).split('/join/')[1]!;
    expect((await send('DELETE', `/api/boards/${board.id}/invitations/${encodeURIComponent(other)}`, session)).statusCode).toBe(204);
    expect((await send('GET', `/auth/join/${revokedToken}`)).statusCode).toBe(404);
    for (const bad of ['nope', 'inv_x', `set_${'a'.repeat(46)}`, 'x'.repeat(101)]) {
      expect([400, 404, 414]).toContain((await send('GET', `/auth/join/${bad}`)).statusCode);
    }
  });
});

describe('account set-up links', () => {
  it('a user created without a password gets a link; they choose name and password with it and are signed in', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const session = await loginCookie(t.app, admin.email, admin.password);
    const email = `carol-${Date.now()}@example.com`;
    const created = await send('POST', '/admin/users', session, { email });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body.user).toMatchObject({ email, passwordSet: false, status: 'active' });
    expect(body.setupLink.url).toMatch(/\/join\/set_[0-9A-Za-z]{46}$/);
    expect(Date.parse(body.setupLink.expiresAt) - Date.now()).toBeGreaterThan(6 * 86_400_000);
    const token = (body.setupLink.url as string).split('/join/')[1]!;
    // No password yet: nothing signs in.
    expect((await send('POST', '/auth/login', {}, { email, password: '' })).statusCode).toBe(400);

    expect((await send('GET', `/auth/join/${token}`)).json().link).toMatchObject({ kind: 'account', email, name: email.split('@')[0], board: null });
    const done = await send('POST', `/auth/join/${token}`, {}, { name: 'Carol', password: 'carol password' });
    expect(done.statusCode, done.body).toBe(201);
    expect(done.json()).toMatchObject({ user: { email, name: 'Carol' }, boardId: null });
    expect((await send('POST', '/auth/login', {}, { email, password: 'carol password' })).statusCode).toBe(200);
    expect((await send('GET', `/auth/join/${token}`)).statusCode).toBe(404);

    // A new link for an existing user (a lost password): the old sessions end when it is used.
    const carol = await t.db.prisma.user.findUniqueOrThrow({ where: { email } });
    const carolSession = await loginCookie(t.app, email, 'carol password');
    const again = await send('POST', `/admin/users/${carol.id}/setup-link`, session);
    expect(again.statusCode).toBe(201);
    const resetToken = (again.json().setupLink.url as string).split('/join/')[1]!;
    expect((await send('POST', `/auth/join/${resetToken}`, {}, { name: 'Carol', password: 'another password' })).statusCode).toBe(201);
    expect((await send('GET', '/auth/me', carolSession)).statusCode).toBe(401);
    // Only site admins make links; a deleted user gets none.
    const userSession = await loginCookie(t.app, email, 'another password');
    expect((await send('POST', `/admin/users/${carol.id}/setup-link`, userSession)).statusCode).toBe(403);
    expect((await send('POST', '/admin/users/99999999/setup-link', session)).statusCode).toBe(404);
  });
});
