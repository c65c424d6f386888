import type { Config } from '../config.js';

/** Where the connector lives: the authorisation server's issuer, the MCP resource and its metadata. */
export interface ConnectorUrls {
  /** The origin, e.g. https://boards.example.com: the OAuth issuer. */
  issuer: string;
  /** `<issuer>/mcp`: the resource every access token is bound to (RFC 8707). */
  resource: string;
  /** RFC 9728 metadata of that resource (path-suffixed form, as the MCP client looks first). */
  resourceMetadata: string;
}

/**
 * PUBLIC_BASE_URL's origin, else the address the server listens on. OAuth needs one stable
 * issuer (it is inside every token and compared by clients), so it cannot follow the Host header.
 */
export function connectorUrls(config: Config): ConnectorUrls {
  let issuer: string;
  if (config.PUBLIC_BASE_URL) {
    issuer = new URL(config.PUBLIC_BASE_URL).origin;
  } else {
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    issuer = new URL(`http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`).origin;
  }
  return {
    issuer,
    resource: `${issuer}/mcp`,
    resourceMetadata: `${issuer}/.well-known/oauth-protected-resource/mcp`,
  };
}
