import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resolveSession } from '../../accounts/credentials/resolve-credential.js';
import type { Config } from '../../config.js';
import { SESSION_COOKIE, sameOriginOnly } from '../../accounts/credentials/auth.js';
import { toAppError } from '../../platform/errors.js';
import { type AuthorizationServerHandle, CONSENT_PATH, OAUTH_ROUTES } from '../authorization-server.js';
import { consentPage, consentPolicy, errorPage, OAUTH_REFERRER_POLICY, type StylesheetHref } from '../consent-page.js';
import { createConnection } from '../create-connection.js';
import { requestedWrite } from '../policy.js';
import type { ConnectorUrls } from '../urls.js';

/** The paths oidc-provider answers (everything else under /oauth is ours or 404). */
const PROVIDER_PATHS = [
  OAUTH_ROUTES.authorization,
  `${OAUTH_ROUTES.authorization}/:uid`,
  OAUTH_ROUTES.token,
  OAUTH_ROUTES.registration,
  OAUTH_ROUTES.revocation,
  OAUTH_ROUTES.jwks,
  OAUTH_ROUTES.pushed_authorization_request,
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
];

const html = (reply: FastifyReply, status: number, body: string, policy = consentPolicy(undefined)) =>
  reply
    .status(status)
    .header('content-security-policy', policy)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', OAUTH_REFERRER_POLICY)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body);


/** The signed-in person (the web app's session cookie), or null. */
async function sessionUser(request: FastifyRequest) {
  const token = request.cookies[SESSION_COOKIE];
  return token ? resolveSession({ db: request.server.db.prisma, token }) : null;
}

/**
 * The authorisation server's endpoints, served by oidc-provider on the raw request (it reads its
 * own bodies: form-encoded token requests, JSON registrations), and our consent page, where a
 * signed-in person approves or denies a client.
 */
export const oauthRoutes: FastifyPluginAsync<{ server: AuthorizationServerHandle; urls: ConnectorUrls; config: Config; stylesheet: StylesheetHref }> = async (
  app,
  { server: getServer, urls, config, stylesheet },
) => {
  const expired = async (reply: FastifyReply) =>
    html(reply, 400, errorPage('This request has expired', 'The authorisation request is no longer valid, or was opened in another browser.', await stylesheet()));

  await app.register(async (raw) => {
    // The library parses its own bodies: leave the stream unread.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    let callback: ReturnType<Awaited<ReturnType<AuthorizationServerHandle>>['callback']> | undefined;
    for (const url of PROVIDER_PATHS) {
      raw.route({
        method: ['GET', 'POST', 'OPTIONS'],
        url,
        schema: { hide: true },
        // An interaction's id is half of what continues a sign-in (with its cookie): kept out of the request log.
        ...(url.includes(':uid') ? { config: { secretParams: ['uid'] } } : {}),
        handler: async (request, reply) => {
          // RFC 8414's location for the same document the library serves as OpenID discovery.
          if (url === '/.well-known/oauth-authorization-server') request.raw.url = '/.well-known/openid-configuration';
          callback ??= (await getServer()).callback();
          reply.hijack();
          reply.raw.setHeader('x-request-id', request.id);
          await callback(request.raw, reply.raw);
        },
      });
    }
  });

  await app.register(async (scope) => {
    const consent = scope.withTypeProvider<ZodTypeProvider>();
    consent.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    // A person reads these answers in a browser: every refusal is a page of the app, never JSON.
    consent.setErrorHandler(async (error, request, reply) => {
      const appError = toAppError(error);
      if (appError.status >= 500) request.log.error({ err: error }, 'consent page failed');
      const message =
        appError.status === 403
          ? 'This form was sent from another site, so it was refused. Open the consent page again from your assistant.'
          : appError.status >= 500
            ? 'Something went wrong on the server. Try again in a moment.'
            : 'This request could not be understood. Open the consent page again from your assistant.';
      return html(reply, appError.status, errorPage(appError.status >= 500 ? 'Something went wrong' : 'Request refused', message, await stylesheet()));
    });

    const params = z.strictObject({ uid: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
    const signIn = (reply: FastifyReply, uid: string) =>
      reply.redirect(`/signin?next=${encodeURIComponent(`${CONSENT_PATH}/${uid}`)}`, 303);

    /**
     * The pending authorisation this browser started, its signed-in person and its client; or
     * null once the reply (expired, or off to sign in) is sent.
     */
    const interaction = async (request: FastifyRequest, reply: FastifyReply, uid: string) => {
      const server = await getServer();
      const details = await server.interactionDetails(request.raw, reply.raw).catch(() => null);
      if (!details || details.uid !== uid) {
        await expired(reply);
        return null;
      }
      const user = await sessionUser(request);
      if (!user) {
        await signIn(reply, details.uid);
        return null;
      }
      const clientId = String(details.params.client_id);
      const client = await server.Client.find(clientId);
      if (!client) {
        await expired(reply);
        return null;
      }
      return { server, details, user, clientId, client };
    };

    consent.get(`${CONSENT_PATH}/:uid`, { schema: { hide: true, params }, config: { secretParams: ['uid'] } }, async (request, reply) => {
      const found = await interaction(request, reply, request.params.uid);
      if (!found) return reply;
      const { details, user, clientId, client } = found;
      const redirectUri = String(details.params.redirect_uri ?? '');
      return html(
        reply,
        200,
        consentPage({
          action: `${CONSENT_PATH}/${details.uid}`,
          clientName: client.clientName ?? clientId,
          clientUri: client.clientUri ?? null,
          redirectUri,
          userName: user.name,
          userEmail: user.email,
          write: requestedWrite(details.params.scope as string | undefined),
          stylesheet: await stylesheet(),
        }),
        consentPolicy(redirectUri),
      );
    });

    consent.post(
      `${CONSENT_PATH}/:uid`,
      {
        schema: {
          hide: true,
          params,
          body: z.object({ decision: z.enum(['approve', 'approve_read', 'deny'], { message: 'must be approve, approve_read or deny' }) }),
        },
        config: { secretParams: ['uid'] },
        // The session cookie is SameSite=Strict, and a browser's cross-site post is refused by Origin.
        onRequest: sameOriginOnly(config),
      },
      async (request, reply) => {
        const found = await interaction(request, reply, request.params.uid);
        if (!found) return reply;
        const { server, details, user, clientId, client } = found;
        let result;
        if (request.body.decision === 'deny') {
          result = { error: 'access_denied', error_description: 'the user denied access' };
        } else {
          const connection = await createConnection({
            db: app.db.prisma,
            server,
            userId: user.userId,
            clientId,
            clientName: client.clientName ?? clientId,
            resource: urls.resource,
            requested: String(details.params.scope ?? ''),
            write: request.body.decision === 'approve' && requestedWrite(details.params.scope as string | undefined),
          });
          result = { login: { accountId: String(user.userId) }, consent: { grantId: connection.grantId } };
        }
        const returnTo = await server.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
        return reply.redirect(returnTo, 303);
      },
    );
  });
};
