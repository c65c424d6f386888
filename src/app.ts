import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { generatorFromConfig } from './answers/generators/from-config.js';
import type { Generator } from './answers/generators/generator.js';
import { attachmentReaderPlugin } from './answers/attachment-reader/plugin.js';
import { semanticRankingPlugin } from './answers/retrieval/vectors/plugin.js';
import { personalCredentialIdentifier, personalCredentials } from './accounts/credentials/credential-identity.js';
import { answerKeyIdentifier } from './answers/keys/resolve-answer-key.js';
import { agentRoutes } from './answers/routes/agents.js';
import { answerRoutes } from './answers/routes/answer.js';
import { tryRoutes } from './answers/routes/try.js';
import { insightRoutes } from './answers/routes/insights.js';
import { knowledgeRoutes } from './answers/routes/knowledge.js';
import { configureIndexCache } from './answers/knowledge/index-cache.js';
import { ticketConsoleRoutes } from './tickets/routes/console.js';
import { workspaceTokenIdentifier } from './tickets/resolve-workspace-token.js';
import { ticketRoutes } from './tickets/routes/tickets.js';
import { replyLinkRoutes } from './tickets/routes/reply-links.js';
import { ticketCommentsPlugin, ticketStreamEffect } from './tickets/comments/plugin.js';
import { cardFollowsTicketEffect, ticketCardsEffect, ticketCardsPlugin } from './tickets/cards/plugin.js';
import { ticketCardRoutes } from './tickets/routes/cards.js';
import { workspaceRoutes } from './workspaces/routes.js';
import { connectionRoutes, connectorPlugin } from './connector/plugin.js';
import { boardWebhookRoutes } from './boards/webhooks/routes.js';
import { webhookConsoleRoutes } from './webhooks/routes/console.js';
import { webhooksPlugin } from './webhooks/plugin.js';
import { mailPlugin } from './mail/plugin.js';
import { notificationsEffect, notificationsPlugin } from './notifications/plugin.js';
import { cardWatchRoutes } from './notifications/routes/card-watch.js';
import { mailSettingsRoutes } from './notifications/routes/mail-settings.js';
import { notificationRoutes } from './notifications/routes/notifications.js';
import { unsubscribeRoutes } from './notifications/routes/unsubscribe.js';
import { accountRoutes } from './accounts/routes/account.js';
import { adminRoutes } from './accounts/routes/admin.js';
import { authRoutes } from './accounts/routes/auth.js';
import { LoginThrottle } from './accounts/sessions/login-throttle.js';
import { joinRoutes } from './accounts/routes/join.js';
import { keyRoutes } from './accounts/routes/keys.js';
import { attachmentStorePlugin } from './boards/attachments/attachment-store.js';
import { attachmentRoutes } from './boards/routes/attachments.js';
import { boardRoutes } from './boards/routes/boards.js';
import { transferRoutes } from './boards/routes/transfer.js';
import { checklistRoutes } from './boards/routes/checklists.js';
import { commentRoutes } from './boards/routes/comments.js';
import { customFieldRoutes } from './boards/routes/custom-fields.js';
import { labelRoutes } from './boards/routes/labels.js';
import { assigneeRoutes } from './boards/routes/assignees.js';
import { cardRoutes } from './boards/routes/cards.js';
import { listRoutes } from './boards/routes/lists.js';
import { memberRoutes } from './boards/routes/members.js';
import { acceptInvitationsOnSignUp } from './boards/members/sign-up.js';
import { startAdminSocket } from './cli/admin-socket.js';
import { streamsPlugin } from './boards/stream/plugin.js';
import { eventRoutes } from './boards/stream/routes.js';
import { healthRoutes } from './health/routes.js';
import { webPlugin, webStylesheet } from './web/plugin.js';
import { widgetScriptPlugin } from './web/widget-script.js';
import { widgetConsoleRoutes } from './widget/routes/console.js';
import { widgetPublicRoutes } from './widget/routes/public.js';
import { apiAuthentication, SESSION_COOKIE, sameOriginOnly, sessionAuthentication } from './accounts/credentials/auth.js';
import { type Database, openDatabase } from './platform/db.js';
import { dbPlugin } from './platform/database/db-plugin.js';
import { type EventBus, eventBusPlugin } from './boards/activity/event-bus.js';
import { afterUserChange, boardEffects } from './boards/activity/change-board.js';
import { afterCommitPlugin } from './platform/after-commit.js';
import { boardCachePlugin } from './boards/boards/board-cache.js';
import { registerBodyRules } from './platform/http/body-rules.js';
import { registerCors } from './platform/http/cors.js';
import { registerQueryRules } from './platform/http/query-rules.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './platform/errors.js';
import { registerGracefulClose } from './platform/http/graceful-close.js';
import { genRequestId, loggerOptions, RequestLog, registerRequestId, registerSecretPaths } from './platform/http/logging.js';
import { metricsPlugin } from './platform/http/metrics.js';
import { boardMetrics } from './boards/metrics.js';
import { webhookMetrics } from './webhooks/metrics.js';
import { mailMetrics } from './mail/metrics.js';
import { answerMetrics } from './answers/metrics.js';
import { migrate } from './platform/database/migrate.js';
import { overloadPlugin } from './platform/http/overload.js';
import { rateLimitPlugin } from './platform/http/rate-limit.js';
import { registerDocs } from './platform/openapi.js';

export interface BuildAppOptions {
  config: Config;
  /** A database to use instead of opening one from the config (tests); the caller closes it. */
  db?: Database;
  /** The board event bus: the server's (src/server.ts), a test's (two apps may share one). */
  events: EventBus;
  /** Ping and access-check intervals of event streams (tests shorten them). */
  streamIntervals?: { ping: number; accessCheck: number };
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** The answer generator; by default the one the config selects (LLM_BASE_URL or offline). */
  generator?: Generator;
  /** Run this process's webhook dispatcher (default true; tests of restarts turn it off). */
  webhookDispatcher?: boolean;
  /** Run this process's mail worker when SMTP_URL is set (default true; tests of restarts turn it off). */
  mailWorker?: boolean;
  /**
   * Build the OpenAPI documents at start (default true): ~150 ms of CPU a server pays once, and a
   * test suite that starts hundreds of apps, most never asked for a document, need not.
   */
  docsAtStart?: boolean;
}

export const API_DESCRIPTION = `The task-board REST API. Every path is relative to this server URL (\`/api\`).

Authenticate with a personal API key: \`Authorization: Bearer tsk_…\`. A \`read\` key may only GET.
Errors always have the body \`{"error": "<message>"}\`; the message names the field or rule at fault
(a missing field: \`"name: required"\`). Unknown body fields and unknown query parameters are 400.
Collections are objects holding a named array (\`{"boards": [...]}\`), never bare arrays; paged ones
also send \`Link: <…>; rel="next"\` (RFC 8288).

Cards and boards carry a strong \`ETag\`: \`If-None-Match\` on GET answers 304 when unchanged; \`If-Match\` on
a change of a card applies it only at that version (strong comparison: a weak \`W/"…"\` tag never matches),
else 409, the status of every version conflict here.

CORS: any origin may call with a key (\`Access-Control-Allow-Origin: *\`), never with cookies.

**Webhooks.** \`POST /boards/{id}/webhooks\` subscribes a URL to a board's changes: each is POSTed as
\`{"type": "<activity type>", "timestamp", "data": <the Activity, as GET /boards/{id}/activity has it>}\`, signed per
Standard Webhooks (\`webhook-id\`, the same on every attempt of one event; \`webhook-timestamp\`; \`webhook-signature: v1,…\`,
two signatures during a secret rotation). Any non-2xx answer, timeout or connection error is retried on the server's
schedule (by default 5s, 5m, 30m, 2h, 5h, 10h, 10h), honouring \`Retry-After\` on 429/503; \`410 Gone\` disables the webhook.
A webhook is its creator's and receives events only while they can read the board.`;

export const V1_DESCRIPTION = `The answer API (\`POST /v1/answer\`, \`X-API-Key: ans_…\`) and the ticket API
(beta, \`/v1/tickets\`, \`Authorization: Bearer wst_…\`). Errors have the body
\`{"error": "<code>", "message": "<text>"}\`.

**Replies to the customer.** A public comment (\`POST /v1/tickets/{id}/comments\`) reaches the customer's open help
widget at once (\`/v1/widgets/…\`, the widget's own surface), else their mail 10 s later (REPLY_MAIL_DELAY_MS); the mail
links to \`/reply/trl_…\`, a page of this server backed by \`/v1/replies/{token}\` (no account: the link's token, 30 days).

**Webhooks.** Ticket changes are POSTed to the workspace's endpoints as \`{"type", "timestamp", "data"}\`
(\`ticket.created\`: data is the ticket; \`ticket.updated\`: the ticket plus \`previous\`, the old values of the
fields that changed; \`ticket.comment_created\`: the comment), signed per Standard Webhooks (\`webhook-id\`, the same on every attempt of one event;
\`webhook-timestamp\`; \`webhook-signature: v1,…\`, two signatures during a secret rotation). Any non-2xx answer,
timeout or connection error is retried on the server's schedule (by default 5s, 5m, 30m, 2h, 5h, 10h, 10h),
honouring \`Retry-After\` on 429/503; \`410 Gone\` disables the endpoint. Answer 2xx quickly and process afterwards.`;

/**
 * The whole server as a Fastify instance, not listening. Opens (and migrates, when
 * MIGRATE_ON_START) the configured database unless one is handed in.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const generator = options.generator ?? generatorFromConfig(config);
  const owned = !options.db;
  const db = options.db ?? (await openDatabase(config));
  let applied: string[] = [];
  try {
    if (owned && config.MIGRATE_ON_START) applied = (await migrate(db)).applied;
  } catch (error) {
    await db.close();
    throw error;
  }

  const logger = options.logStream
    ? { ...loggerOptions(config.LOG_LEVEL), stream: options.logStream }
    : loggerOptions(config.LOG_LEVEL);
  const app = Fastify({
    logger,
    logController: new RequestLog(),
    genReqId: genRequestId,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  if (applied.length) app.log.info({ migrations: applied }, 'applied migrations');

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerBodyRules(app);
  registerQueryRules(app);

  registerRequestId(app);
  // Before any route: the request log redacts the path parameters that are secrets.
  registerSecretPaths(app);
  registerGracefulClose(app);
  registerErrorHandling(app);
  // Before shedding, rate limiting and authentication: preflights answered at once, errors readable.
  registerCors(app);
  // JSON answers over 1 KB compressed when the client takes it (a 200-card board: 104 KB → about
  // 10 KB). JSON only: event streams must not be buffered, files and web assets are sent as they are.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], customTypes: /^application\/json\b/, brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });
  await app.register(dbPlugin, { db, owned });
  // Root onRequest hooks, before every surface's authentication: shed load when overloaded, then
  // count the request against its budget (no credential lookup on either path).
  await app.register(overloadPlugin, { config });
  await app.register(rateLimitPlugin, { config });
  // Each credential's module tells the limiter who a request is before its gate runs (the connector adds its own).
  app.rateLimitIdentifiers.push(personalCredentialIdentifier(app.db.prisma), answerKeyIdentifier(app.db.prisma), workspaceTokenIdentifier(app.db.prisma));
  app.rateLimitCredentials.push(...personalCredentials);
  // …and, once its gate ran, who the request proved to be (a decoration absent on other surfaces is undefined).
  app.rateLimitIdentities.push(
    ({ actor }) => (actor ? (actor.via === 'key' ? `k:${actor.keyId}` : `u:${actor.userId}`) : null),
    ({ answerKey }) => (answerKey ? `a:${answerKey.keyId}` : null),
    ({ ticketWorkspaceId }) => (ticketWorkspaceId !== undefined && ticketWorkspaceId !== null ? `w:${ticketWorkspaceId}` : null),
    ({ connector }) => (connector ? `c:${connector.connectionId}` : null),
  );
  // Knowledge indexes are kept per process within KNOWLEDGE_INDEX_CACHE_MB, least recently used out first.
  configureIndexCache({ db: app.db.prisma, maxBytes: config.KNOWLEDGE_INDEX_CACHE_MB * 1024 * 1024 });
  await app.register(eventBusPlugin, { bus: options.events });
  // What follows a commit: one table (platform/after-commit.ts EFFECTS), one runner per effect,
  // each the module's own. The runners read the decorations registered below when a change commits.
  const boards = boardEffects(app.events);
  const ticketStreams = ticketStreamEffect(app);
  await app.register(afterCommitPlugin, {
    runners: {
      cache: (change) => (change.kind === 'tickets.board' ? app.ticketCards.forgetSolvedLists() : boards.cache(change)),
      // Board changes to the board streams, ticket changes to the widget streams (this process's).
      stream: (change) => (change.kind === 'board.activity' ? boards.stream(change) : ticketStreams(change)),
      notifierWake: notificationsEffect(app),
      ticketFollowsCard: ticketCardsEffect(app),
      cardFollowsTicket: cardFollowsTicketEffect(app),
      webhookWake: () => app.webhooks.wake(),
      mailWake: () => app.mail.wake(),
      filePurge: () => void app.attachments.purgeDeleted(),
    },
  });
  await app.register(boardCachePlugin, { config });
  await app.register(attachmentStorePlugin, { config });
  await app.register(attachmentReaderPlugin, { config });
  await app.register(semanticRankingPlugin, { config });
  await app.register(streamsPlugin, { intervals: options.streamIntervals });
  await app.register(webhooksPlugin, { config, enabled: options.webhookDispatcher ?? true });
  await app.register(mailPlugin, { config, worker: options.mailWorker ?? true });
  await app.register(notificationsPlugin, { config });
  await app.register(ticketCommentsPlugin, { config });
  await app.register(ticketCardsPlugin);
  // Each module's metrics, registered with the ground layer, which names none of them.
  await app.register(metricsPlugin, { config, sources: [boardMetrics, webhookMetrics, mailMetrics, answerMetrics] });

  await app.register(healthRoutes);
  await app.register(webPlugin);
  await app.register(widgetScriptPlugin);

  if (owned && db.kind === 'embedded') {
    // Lets the admin CLI reach the embedded database while this process holds it.
    let socket: Awaited<ReturnType<typeof startAdminSocket>> = null;
    app.addHook('onReady', async () => {
      socket = await startAdminSocket({ db, config, events: app.events, effects: app.effects });
    });
    app.addHook('onClose', async () => socket?.close());
  }

  await app.register(cookie);

  // Each surface is its own encapsulation context so that each gets its own OpenAPI document.
  // The task-board document covers /api and the web backend (/auth, /account, /admin).
  await app.register(async (api) => {
    await registerDocs(api, {
      title: 'Task boards API',
      description: API_DESCRIPTION,
      path: '/api/docs',
      serverUrl: '/api',
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'tsk_…', description: 'A personal API key.' },
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The web app\'s session (POST /auth/login).' },
      },
      // The web backend (/auth, /account, /admin, /agent) takes a session only: API keys are refused there.
      outsideSecurity: [{ session: [] }],
      buildAtStart: options.docsAtStart,
    });
    await api.register(
      async (scoped) => {
        scoped.addHook('onRequest', apiAuthentication(config));
        await scoped.register(boardRoutes);
        await scoped.register(transferRoutes);
        await scoped.register(memberRoutes, { config });
        await scoped.register(listRoutes);
        await scoped.register(cardRoutes);
        await scoped.register(labelRoutes);
        await scoped.register(assigneeRoutes);
        await scoped.register(customFieldRoutes);
        await scoped.register(checklistRoutes);
        await scoped.register(commentRoutes);
        await scoped.register(attachmentRoutes, { config });
        await scoped.register(eventRoutes);
        await scoped.register(boardWebhookRoutes, { config });
        await scoped.register(notificationRoutes);
        await scoped.register(cardWatchRoutes);
        await scoped.register(ticketCardRoutes);
      },
      { prefix: '/api' },
    );
    // The unsubscribe link of notification mail: no session, and mail clients POST it from anywhere (RFC 8058).
    await api.register(unsubscribeRoutes);
    // One set of failed-password counters for sign-in, set-up and the account page's password checks.
    const loginThrottle = new LoginThrottle();
    await api.register(async (web) => {
      web.addHook('onRequest', sameOriginOnly(config));
      // Sign-in and set-up, before any session; /auth/logout and /auth/me guard themselves.
      await web.register(authRoutes, { config, throttle: loginThrottle });
      // The web backend's one guard: every route below takes a session, and a route registered
      // here cannot forget it. (In order: the OpenAPI document lists paths as registered.)
      // Invitation and set-up links are opened by people who have no session yet.
      const signUp = acceptInvitationsOnSignUp({ db: app.db.prisma, events: app.events, effects: app.effects });
      // A member's name and address are on every board they belong to: cached boards go, here at
      // once; the other processes hear it from the change's own commit (boards/sql/user-changed.sql).
      const userChanged = afterUserChange(app.effects);
      await web.register(joinRoutes, { config, signUp, userChanged });
      await web.register(async (session) => {
        session.addHook('onRequest', sessionAuthentication(config));
        await session.register(accountRoutes, { config, throttle: loginThrottle, userChanged });
        await session.register(mailSettingsRoutes);
        await session.register(keyRoutes);
        await session.register(connectionRoutes, { config });
        await session.register(adminRoutes, { config, signUp, userChanged });
        await session.register(workspaceRoutes, { config });
        await session.register(agentRoutes);
        await session.register(knowledgeRoutes, { config });
        await session.register(insightRoutes);
        await session.register(tryRoutes, { config, generator });
        await session.register(ticketConsoleRoutes);
        await session.register(webhookConsoleRoutes, { config });
        await session.register(widgetConsoleRoutes, { config });
      });
    });
  });

  // The assistant connector: /mcp, its OAuth authorisation server and consent page (src/connector).
  await app.register(connectorPlugin, { config, generator, stylesheet: webStylesheet() });

  await app.register(async (v1) => {
    await registerDocs(v1, {
      title: 'Answer and ticket API',
      description: V1_DESCRIPTION,
      path: '/v1/docs',
      serverUrl: '/v1',
      securitySchemes: {
        answerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A workspace answer key (ans_…).' },
        workspaceToken: { type: 'http', scheme: 'bearer', bearerFormat: 'wst_…', description: 'A workspace token.' },
        visitorToken: { type: 'http', scheme: 'bearer', bearerFormat: 'wvt_…', description: 'A help-widget visitor token (POST /v1/widgets/{id}/visitors).' },
      },
      buildAtStart: options.docsAtStart,
    });
    await v1.register(answerRoutes, { config, generator });
    await v1.register(ticketRoutes);
    // The page a reply mail links to (/reply/trl_…): no account, the link's token is the proof.
    await v1.register(replyLinkRoutes);
    // The help widget's public surface, called from customers' pages (src/widget).
    await v1.register(widgetPublicRoutes, { config, generator });
  });

  return app;
}
