import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { errorBody } from '../../platform/openapi.js';
import { publicOrigin } from '../../platform/http/public-origin.js';
import { consoleWorkspace, workspaceParam } from '../../workspaces/console-context.js';
import { presentWidget } from '../presenters.js';
import * as s from '../schemas.js';
import { createWidget } from '../widgets/create-widget.js';
import { deleteWidget } from '../widgets/delete-widget.js';
import { listWidgets } from '../widgets/list-widgets.js';
import { updateWidget } from '../widgets/update-widget.js';

const tags = ['support console'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };
const widgetParams = z.strictObject({ ...workspaceParam, widgetId: s.widgetId });

/** Support → Widget: a workspace's widgets (session; owners and admins change them). */
export const widgetConsoleRoutes: FastifyPluginAsyncZod<{ config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'> }> = async (app, { config }) => {
  const db = app.db.prisma;
  // Where the snippet loads widget.js from: the origin of every link the server makes (publicOrigin),
  // never the Host the console was reached by (a forged one would put another site in the snippet).
  const base = () => publicOrigin(config, app.server.address());

  app.get(
    '/agent/workspaces/:workspaceId/widgets',
    { schema: { tags, summary: 'List the workspace\'s widgets', params: z.strictObject(workspaceParam), response: { 200: z.object({ widgets: z.array(s.widget) }), ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'read');
      return { widgets: (await listWidgets({ db, workspaceId: workspace.id })).map((w) => presentWidget(w, base())) };
    },
  );

  app.post(
    '/agent/workspaces/:workspaceId/widgets',
    { schema: { tags, summary: 'Create a widget (its identity secret is shown this once)', params: z.strictObject(workspaceParam), body: s.widgetCreate, response: { 201: s.createdWidget, ...errors } } },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      const widget = await createWidget({ db, workspaceId: workspace.id, input: request.body });
      return reply.status(201).send({ ...presentWidget(widget, base()), identitySecret: widget.identitySecret });
    },
  );

  app.patch(
    '/agent/workspaces/:workspaceId/widgets/:widgetId',
    { schema: { tags, summary: 'Change a widget', params: widgetParams, body: s.widgetUpdate, response: { 200: s.widget, ...errors } } },
    async (request) => {
      const workspace = await consoleWorkspace(request, 'manage');
      return presentWidget(await updateWidget({ db, workspaceId: workspace.id, widgetId: request.params.widgetId, changes: request.body }), base());
    },
  );

  app.delete(
    '/agent/workspaces/:workspaceId/widgets/:widgetId',
    { schema: { tags, summary: 'Delete a widget (its snippet stops working)', params: widgetParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const workspace = await consoleWorkspace(request, 'manage');
      await deleteWidget({ db, workspaceId: workspace.id, widgetId: request.params.widgetId });
      return reply.status(204).send(null);
    },
  );
};
