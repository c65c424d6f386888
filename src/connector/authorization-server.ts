import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.js';
import type { PrismaClient } from '../platform/db.js';
import { clientMetadataFetchAllowed, guardedMetadataFetch } from './client-metadata-fetch.js';
import { consentPolicy, errorPage, OAUTH_REFERRER_POLICY, type StylesheetHref } from './consent-page.js';
import { loadOAuthKeys } from './oauth-keys.js';
import { oauthStore } from './oauth-store.js';
import { CONNECTOR_SCOPES } from './policy.js';
import type { ConnectorUrls } from './urls.js';

/** Lifetimes, in seconds. An access token is short; its refresh token rotates on every use. */
export const TOKEN_TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 365 * 24 * 60 * 60,
  Interaction: 60 * 60,
  Session: 60 * 60,
  IdToken: 60 * 60,
} as const;

/** Where the authorisation server's endpoints live (all under /oauth, besides the metadata). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  pushed_authorization_request: '/oauth/par',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const;

export const CONSENT_PATH = '/oauth/consent';

/**
 * The connector's OAuth 2.1 authorisation server: oidc-provider (OpenID-certified), configured as
 * the MCP authorisation specification asks — authorisation code with PKCE (S256 only), resource
 * indicators binding every token to `/mcp`, dynamic client registration and client ID metadata
 * documents, refresh tokens rotated on each use (a replayed one revokes the whole grant), and
 * revocation. People sign in and consent on our own page (CONSENT_PATH); the library never
 * renders a login form.
 */
interface AuthorizationServerDeps {
  db: PrismaClient;
  config: Config;
  urls: ConnectorUrls;
  stylesheet: StylesheetHref;
}

async function createAuthorizationServer({ db, config, urls, stylesheet }: AuthorizationServerDeps): Promise<Provider> {
  const { default: OidcProvider, errors } = await importOidcProvider();
  const keys = await loadOAuthKeys({ db });
  const configuration: Configuration = {
    adapter: oauthStore(db),
    // Every document the library fetches (client metadata, a client's jwks_uri) goes through the
    // guard, and none may be large: the library reads them whole into memory.
    fetch: guardedMetadataFetch as never,
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024, jwks_uri: 64 * 1024, sector_identifier_uri: 16 * 1024 } as never,
    jwks: keys.jwks,
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    routes: OAUTH_ROUTES,
    // read and write are the resource's scopes; listed here too so clients may register them (RFC 7591 `scope`).
    scopes: ['openid', 'offline_access', ...CONNECTOR_SCOPES],
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // No registration access token: client management (RFC 7592) is off, so it would only be a
      // row that never expires.
      registration: { enabled: true, issueRegistrationAccessToken: false },
      // A client may revoke only its own tokens; revoking a refresh token revokes its whole grant.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for /mcp; one that names another is refused.
        defaultResource: () => urls.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== urls.resource) throw new errors.InvalidTarget(`this server only issues tokens for ${urls.resource}`);
          return { scope: CONNECTOR_SCOPES.join(' '), audience: urls.resource, accessTokenTTL: TOKEN_TTL.AccessToken, accessTokenFormat: 'opaque' };
        },
      },
      // The MCP authorisation spec's preferred registration: the client_id is an https URL of a
      // metadata document, fetched (and cached) by the library — only from hosts that are public
      // before any connection is opened (client-metadata-fetch.ts).
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02', allowFetch: async (_ctx: unknown, clientId: string) => clientMetadataFetchAllowed(clientId) } as never,
    },
    // OAuth 2.1 and MCP: a code may only travel in clear text to the client's own machine.
    extraClientMetadata: {
      properties: ['redirect_uris', 'sector_identifier_uri'],
      validator: (_ctx, key, value) => {
        if (key === 'sector_identifier_uri' && value !== undefined) {
          // Only public subject identifiers here, so it would be a fetch for nothing.
          throw new errors.InvalidClientMetadata('sector_identifier_uri is not supported');
        }
        if (key !== 'redirect_uris' || !Array.isArray(value)) return;
        for (const uri of value as unknown[]) {
          if (typeof uri === 'string' && !redirectUriAllowed(uri)) {
            throw new errors.InvalidRedirectUri(`${uri}: http redirect URIs are allowed only on loopback (127.0.0.1, [::1], localhost); use https`);
          }
        }
      },
    },
    findAccount: async (_ctx, sub) => {
      const user = /^\d{1,10}$/.test(sub) ? await db.user.findUnique({ where: { id: Number(sub) }, select: { status: true } }) : null;
      if (!user || user.status !== 'active') return undefined;
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    // Each authorisation asks the person again; the only grant reused is the one they just approved.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Tokens live by their own lifetimes and the connection, not the library's browser session.
    expiresWithSession: async () => false,
    interactions: { url: async (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    ttl: { ...TOKEN_TTL },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.set('content-security-policy', consentPolicy(undefined));
      ctx.set('referrer-policy', OAUTH_REFERRER_POLICY);
      ctx.set('cache-control', 'no-store');
      ctx.body = errorPage('Authorisation failed', out.error_description ? `${out.error_description} (${out.error})` : out.error, await stylesheet());
    },
  };
  const provider = new OidcProvider(urls.issuer, configuration);
  provider.proxy = config.TRUST_PROXY;
  return provider;
}

export type AuthorizationServer = Provider;

/** https anywhere; http only to the loopback interface (RFC 8252 §7.3); other schemes (app links) as the library allows. */
export function redirectUriAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return true; // the library refuses what does not parse, with its own message
  }
  if (url.protocol !== 'http:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * oidc-provider 9 prints "Unsupported runtime" on import under Node 20 (it tests on 22 and later;
 * it runs on 20, and our tests prove the flows there). That line would land on every start's
 * stderr and in front of CLI errors, so it is dropped; any other warning of the library passes.
 */
async function importOidcProvider() {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
    warn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}

/**
 * The authorisation server, made on first use: it reads (or makes) its keys in the database, and
 * a process whose database is down at start must still start, answer /healthz and recover. A
 * failed attempt is not remembered; the next request tries again.
 */
export function lazyAuthorizationServer(deps: AuthorizationServerDeps & { onCreate?: (server: Provider) => void }) {
  let pending: Promise<Provider> | null = null;
  return (): Promise<Provider> => {
    pending ??= createAuthorizationServer(deps).then(
      (server) => {
        deps.onCreate?.(server);
        return server;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
}

export type AuthorizationServerHandle = ReturnType<typeof lazyAuthorizationServer>;
