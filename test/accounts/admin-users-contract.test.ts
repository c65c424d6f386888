import { describe, expect, it } from 'vitest';
import { loginCookie, makeUser } from '../factories.js';
import { useTestApp } from '../helper.js';
import { responseSchemaOf } from '../openapi-responses.js';

const t = useTestApp();

describe('responses agree with the OpenAPI document (#31: generated clients rejected setupLink: null)', () => {
  it('POST /admin/users: 201 with a set-up link, and 201 with setupLink null when a password is given', async () => {
    const admin = await makeUser(t.db, { siteAdmin: true });
    const { cookie } = await loginCookie(t.app, admin.email, admin.password);
    const validate = await responseSchemaOf(t.app, '/api/docs/openapi.json', 'POST', '/admin/users', 201);
    const withLink = await t.app.inject({ method: 'POST', url: '/admin/users', headers: { cookie }, payload: { email: 'linked@example.com' } });
    expect(withLink.statusCode).toBe(201);
    expect(withLink.json().setupLink).toMatchObject({ url: expect.stringMatching(/\/join\/set_/) });
    expect(validate(withLink.json()), JSON.stringify(validate.errors)).toBe(true);
    const withPassword = await t.app.inject({ method: 'POST', url: '/admin/users', headers: { cookie }, payload: { email: 'direct@example.com', password: 'a long enough password' } });
    expect(withPassword.statusCode).toBe(201);
    expect(withPassword.json().setupLink).toBeNull();
    expect(validate(withPassword.json()), JSON.stringify(validate.errors)).toBe(true);
  });

  it('GET /auth/session: a visitor\'s user null, and a signed-in user', async () => {
    const validate = await responseSchemaOf(t.app, '/api/docs/openapi.json', 'GET', '/auth/session', 200);
    const visitor = await t.app.inject({ method: 'GET', url: '/auth/session' });
    expect(visitor.json().user).toBeNull();
    expect(validate(visitor.json()), JSON.stringify(validate.errors)).toBe(true);
    const user = await makeUser(t.db);
    const { cookie } = await loginCookie(t.app, user.email, user.password);
    const signedIn = await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } });
    expect(signedIn.json().user).toMatchObject({ id: user.id });
    expect(validate(signedIn.json()), JSON.stringify(validate.errors)).toBe(true);
  });
});
