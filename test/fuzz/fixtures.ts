import type { FastifyInstance } from 'fastify';
import { createUserWithInvitations as createUser } from '../../src/boards/members/sign-up.js';

/** Real records for the fuzzer's path parameters, so that requests reach deep into handlers. */
export interface Fixtures {
  apiKey: string;
  cookie: string;
  answerKey: string;
  workspaceToken: string;
  idFor(template: string, name: string): string | number;
}

/**
 * Made through the same HTTP endpoints people and scripts use; throws on any surprise. Session
 * requests carry no Origin (as a non-browser client's), which the same-origin rule lets through.
 */
export async function makeFixtures(app: FastifyInstance): Promise<Fixtures> {
  const password = 'fuzzing password 1';
  await createUser({ db: app.db.prisma, email: 'fuzz-admin@example.com', password, name: 'Fuzz Admin', siteAdmin: true, events: app.events, effects: app.effects });
  const victim = await createUser({ db: app.db.prisma, email: 'fuzz-victim@example.com', password, name: 'Fuzz Victim', events: app.events, effects: app.effects });
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'fuzz-admin@example.com', password } });
  const session = /tb_session=([^;]+)/.exec(String(login.headers['set-cookie']))?.[1];
  if (!session) throw new Error(`fixtures: login failed: ${login.statusCode} ${login.body}`);
  const cookie = `tb_session=${session}`;

  const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = { cookie }) => {
    const res = await app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
    if (res.statusCode >= 300) throw new Error(`fixtures: ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? res.json() : null;
  };

  const { token: apiKey } = await call('POST', '/account/keys', { name: 'fuzz', permission: 'write', boardIds: null, expiresIn: 'never' });
  const spareKey = await call('POST', '/account/keys', { name: 'spare', permission: 'read', boardIds: null, expiresIn: 'never' });
  const api = (method: string, url: string, payload?: unknown) => call(method, `/api${url}`, payload, { authorization: `Bearer ${apiKey}` });

  const board = await api('POST', '/boards', { name: 'Fuzz board' });
  const list = await api('POST', `/boards/${board.id}/lists`, { name: 'To do' });
  await api('POST', `/boards/${board.id}/lists`, { name: 'Done' });
  const label = await api('POST', `/boards/${board.id}/labels`, { name: 'Bug', color: 'red' });
  const field = await api('POST', `/boards/${board.id}/custom-fields`, { name: 'Estimate', type: 'number' });
  await api('POST', `/boards/${board.id}/members`, { email: victim.email, role: 'member' });
  const inviteeEmail = 'fuzz-invitee@example.com';
  await api('POST', `/boards/${board.id}/members`, { email: inviteeEmail, role: 'member' });
  // Subscribed before the cards are made, so that their activity is delivered (to nowhere) and logged.
  const boardWebhook = (await api('POST', `/boards/${board.id}/webhooks`, { url: 'http://127.0.0.1:9/fuzz-board-hook' })).endpoint;
  const card = await api('POST', `/lists/${list.id}/cards`, { title: 'Fuzz card', labelIds: [label.id] });
  await api('POST', `/lists/${list.id}/cards`, { title: 'Second card' });
  const checklist = await api('POST', `/cards/${card.id}/checklists`, { name: 'Steps' });
  const item = await api('POST', `/checklists/${checklist.id}/items`, { name: 'Step 1' });
  const comment = await api('POST', `/cards/${card.id}/comments`, { text: 'A comment' });
  const boundary = 'fuzzboundary';
  const upload = await app.inject({
    method: 'POST',
    url: `/api/cards/${card.id}/attachments`,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
  });
  if (upload.statusCode !== 201) throw new Error(`fixtures: upload: ${upload.statusCode} ${upload.body}`);
  const attachment = upload.json();

  const workspace = await call('POST', '/agent/workspaces', { name: 'Fuzz support' });
  const ws = `/agent/workspaces/${workspace.id}`;
  const agent = await call('POST', `${ws}/agents`, { name: 'Fuzz agent' });
  await call('PUT', `${ws}/articles/reset-password`, { title: 'Reset your password', body: 'Click "Forgot password?" on the sign-in page.', url: null });
  const { token: answerKey } = await call('POST', `${ws}/answer-keys`, { name: 'fuzz' });
  const spareAnswerKey = await call('POST', `${ws}/answer-keys`, { name: 'spare' });
  const { token: workspaceToken } = await call('POST', `${ws}/token`);
  const endpoint = (await call('POST', `${ws}/webhooks`, { url: 'http://127.0.0.1:9/fuzz-hook' })).endpoint;
  const answer = await call('POST', '/v1/answer', { message: 'how do I reset my password?' }, { 'x-api-key': answerKey });
  const ticket = await call('POST', '/v1/tickets', { subject: 'Fuzz ticket', requester: { email: 'someone@example.com' } }, { authorization: `Bearer ${workspaceToken}` });
  const deliveries = await call('GET', `${ws}/webhooks/${endpoint.id}/deliveries`);
  const deliveryId = deliveries.deliveries?.[0]?.id ?? 1;

  const byPrefix: [string, number | string][] = [
    ['/api/boards/', board.id],
    ['/api/lists/', list.id],
    ['/api/cards/', card.id],
    ['/api/labels/', label.id],
    ['/api/custom-fields/', field.id],
    ['/api/checklists/', checklist.id],
    ['/api/items/', item.id],
    ['/api/comments/', comment.id],
    ['/api/attachments/', attachment.id],
    ['/api/webhooks/', boardWebhook.id],
    ['/account/keys/', spareKey.id],
    ['/account/connections/', 1],
    ['/admin/users/', victim.id],
    ['/v1/tickets/', ticket.id],
  ];
  const byName: Record<string, number | string> = {
    labelId: label.id,
    userId: victim.id,
    fieldId: field.id,
    email: inviteeEmail,
    workspaceId: workspace.id,
    agentId: agent.id,
    keyId: spareAnswerKey.id,
    externalId: 'reset-password',
    conversationId: answer.conversationId,
    ticketId: ticket.id,
    endpointId: endpoint.id,
    deliveryId,
  };
  return {
    apiKey,
    cookie,
    answerKey,
    workspaceToken,
    idFor(template, name) {
      if (name !== 'id') return byName[name] ?? 1;
      return byPrefix.find(([prefix]) => template.startsWith(prefix))?.[1] ?? 1;
    },
  };
}
