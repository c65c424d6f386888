import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client as apiClient, makeField, makeLabel, makeList } from '../board-factories.js';
import { makeBoard, makeKey, makeUser } from '../factories.js';
import { Browser, call, type ConnectorApp, connectAssistant, startConnectorApp } from './connector-helpers.js';

/**
 * The create_card tool and POST /api/lists/{id}/cards take one input, declared once: an assistant
 * can set what the REST API sets (custom-field values included) and is refused in the same words.
 */
describe('create_card: the same input as POST /api/lists/{id}/cards', () => {
  let t: ConnectorApp;
  beforeAll(async () => {
    t = await startConnectorApp();
  });
  afterAll(async () => t.close());

  async function boardWithFields() {
    const user = await makeUser(t.db);
    const board = await makeBoard(t.db, user.id);
    const { token } = await makeKey(t.db, user.id);
    const api = apiClient(t.app, { authorization: `Bearer ${token}` });
    const list = await makeList(api, board.id);
    const priority = await makeField(api, board.id, 'list', ['low', 'high']);
    const estimate = await makeField(api, board.id, 'number');
    const label = await makeLabel(api, board.id);
    const browser = new Browser(t.base);
    await browser.signIn(user.email, user.password);
    const { client } = await connectAssistant(t, browser);
    return { user, api, list, priority, estimate, label, client };
  }

  it('creates a card with custom-field values, labels and an assignee, as the route does', async () => {
    const { user, api, list, priority, estimate, label, client } = await boardWithFields();
    const input = {
      title: 'Through the assistant',
      labelIds: [label.id],
      memberIds: [user.id],
      fieldValues: { [priority.id]: 'high', [estimate.id]: 3 },
    };
    const created = await call(client, 'create_card', { listId: list.id, ...input });
    expect(created.isError, created.text).toBe(false);
    expect(created.data).toMatchObject({ title: input.title, labelIds: [label.id], memberIds: [user.id], fieldValues: { [priority.id]: 'high', [estimate.id]: 3 } });

    const rest = await api.post(`/api/lists/${list.id}/cards`, input);
    expect(rest.statusCode).toBe(201);
    const { id: _restId, createdAt: _c, updatedAt: _u, position: _p, ...restCard } = rest.json();
    const { id: _toolId, createdAt: _c2, updatedAt: _u2, position: _p2, ...toolCard } = created.data;
    expect(toolCard).toEqual(restCard);
    // What the tool created is stored, not only answered.
    expect((await api.get(`/api/cards/${created.data.id}`)).json().fieldValues).toEqual({ [priority.id]: 'high', [estimate.id]: 3 });
  });

  it('refuses a value its field cannot take in the words of the route, and creates nothing', async () => {
    const { api, list, estimate, client } = await boardWithFields();
    const body = { title: 'Wrong value', fieldValues: { [estimate.id]: 'three' } };
    const rest = await api.post(`/api/lists/${list.id}/cards`, body);
    expect(rest.statusCode).toBe(400);
    const refused = await call(client, 'create_card', { listId: list.id, ...body });
    expect(refused).toMatchObject({ isError: true, text: rest.json().error });
    expect((await api.get(`/api/boards/${list.boardId}`)).json().lists[0].cards).toEqual([]);
  });

  it("lists the route's body fields, and only those, as the tool's input (with the list's id)", async () => {
    const { client } = await boardWithFields();
    const { tools } = await client.listTools();
    const tool = tools.find((each) => each.name === 'create_card')!;
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const body = doc.paths['/lists/{id}/cards'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['listId', ...Object.keys(body.properties)].sort());
  });
});
