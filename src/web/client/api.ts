/** The API's `field: message` form ("boardIds: choose at least one board"): the field may be a path (`querystring.limit`, `items.0.name`). */
const FIELD_MESSAGE = /^([A-Za-z][\w-]*(?:\.[\w-]+)*): (.+)$/s;

/** Thrown for every non-2xx answer; `message` is the server's own message, shown to the person. */
export class ApiError extends Error {
  /** The request field the server named (its first segment: `boardIds`, `email`), or null. */
  readonly field: string | null;
  /** The message without the field, as a sentence ("Choose at least one board"): what a form shows next to that field. */
  readonly detail: string;
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    const match = FIELD_MESSAGE.exec(message);
    this.field = match ? match[1]!.split('.')[0]! : null;
    const text = match ? match[2]! : message;
    this.detail = text === 'required' ? 'This is required.' : sentence(text);
  }
}

/**
 * The API's terse message as a sentence a person reads: a capital (unless it starts with a value,
 * "bob@example.com is already a member") and a full stop ("Wrong e-mail or password.").
 */
export function sentence(text: string): string {
  const capital = /^[a-z]+(\s|$)/.test(text) ? text[0]!.toUpperCase() + text.slice(1) : text;
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

const sessionEnded = new Set<() => void>();

/** Called when a request meets 401: the session expired or was ended elsewhere. */
export function onSessionEnded(listener: () => void) {
  sessionEnded.add(listener);
  return () => sessionEnded.delete(listener);
}

interface Options {
  /** A 401 is an expected answer (probing /auth/me, signing in), not the end of a session. */
  quiet401?: boolean;
  signal?: AbortSignal;
}

/** JSON in, JSON out, with the session cookie; FormData bodies go as multipart. */
export async function api<T = unknown>(method: string, url: string, body?: unknown, options: Options = {}): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: {}, signal: options.signal };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const err = (parsed ?? {}) as { error?: string; message?: string };
    // /api and the web backend answer {"error": message}; /v1 answers {"error": code, "message"}.
    const message = err.message ?? err.error ?? `The server answered ${response.status}.`;
    if (response.status === 401 && !options.quiet401) for (const listener of sessionEnded) listener();
    throw new ApiError(response.status, message, err.message ? err.error : undefined);
  }
  return parsed as T;
}

export const get = <T>(url: string, options?: Options) => api<T>('GET', url, undefined, options);
export const post = <T>(url: string, body?: unknown, options?: Options) => api<T>('POST', url, body, options);
export const patch = <T>(url: string, body?: unknown) => api<T>('PATCH', url, body);
export const put = <T>(url: string, body?: unknown) => api<T>('PUT', url, body);
export const del = (url: string) => api<void>('DELETE', url);

export function messageOf(error: unknown): string {
  // A message about a field keeps its field ("setup: …"), said beside the field where a form has one.
  if (error instanceof ApiError) return error.field === null ? sentence(error.message) : error.message;
  return error instanceof Error ? error.message : String(error);
}
