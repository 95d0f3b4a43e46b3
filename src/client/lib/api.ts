import { getSession, markExpired, needsRefresh, refreshSession } from './session-store';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A non-OK answer. message is '{status}: {body text or status text}'. */
export class ApiError extends Error {
  readonly status: number;
  /** The server's stable error code ({ message, code }), when the body had one. */
  readonly code: string | undefined;
  /** Parsed JSON body when it was JSON, else the text. */
  readonly body: unknown;

  constructor(status: number, text: string, body: unknown) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    this.code = typeof code === 'string' ? code : undefined;
  }

  /** The server's human message ({ message }), falling back to the full error message. */
  get serverMessage(): string {
    const message =
      this.body && typeof this.body === 'object' ? (this.body as { message?: unknown }).message : null;
    return typeof message === 'string' && message ? message : this.message;
  }

  /** Reasons of a weak_password error. */
  get reasons(): string[] {
    const reasons =
      this.body && typeof this.body === 'object' ? (this.body as { reasons?: unknown }).reasons : null;
    return Array.isArray(reasons)
      ? reasons.filter((r): r is string => typeof r === 'string').map(describeReason)
      : [];
  }
}

/** Human wording of the server's weak_password reason codes (unknown codes are shown as they are). */
const WEAK_PASSWORD_REASONS: Record<string, string> = {
  length: 'Use at least 8 characters.',
  common: 'Avoid common passwords that are easy to guess.',
  email: "Don't use your e-mail address as your password.",
};

function describeReason(reason: string): string {
  return WEAK_PASSWORD_REASONS[reason] ?? reason;
}

/** The human message of any error: the server's message for ApiError, else the error's message. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage;
  if (error instanceof Error) return error.message;
  return String(error);
}

async function currentToken(): Promise<string | null> {
  const session = getSession();
  if (!session) return null;
  if (needsRefresh(session)) {
    try {
      const refreshed = await refreshSession();
      return refreshed?.access_token ?? null;
    } catch {
      return session.access_token;
    }
  }
  return session.access_token;
}

export interface AuthorizedFetchOptions {
  body?: unknown;
  /** What the caller reads from the response (default JSON; AI streams ask for text/event-stream). */
  accept?: string;
  signal?: AbortSignal;
  /** Send no bearer token even when signed in (auth endpoints that take credentials in the body). */
  anonymous?: boolean;
}

function send(method: string, path: string, options: AuthorizedFetchOptions, token: string | null) {
  const { body } = options;
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  // FormData (file uploads) sets its own multipart Content-Type with the boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(path, {
    method,
    headers,
    credentials: 'include',
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    signal: options.signal,
  });
}

/**
 * THE authorized fetch of the client: bearer header from the current session (refreshed first when about to
 * expire), credentials included, and on a 401 while signed in one token refresh and one retry. Returns the
 * Response as it is; apiRequest and the AI stream build on it.
 */
export async function authorizedFetch(
  method: HttpMethod,
  path: string,
  options: AuthorizedFetchOptions = {},
): Promise<Response> {
  const token = options.anonymous ? null : await currentToken();
  let response = await send(method, path, options, token);
  if (response.status === 401 && token) {
    markExpired();
    const refreshed = await refreshSession().catch(() => null);
    if (refreshed && refreshed.access_token !== token) {
      response = await send(method, path, options, refreshed.access_token);
    }
  }
  return response;
}

/** The server's `{ message, code }` (or whatever it sent) as an ApiError. */
export async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return new ApiError(response.status, text || response.statusText, parsed);
}

export interface RequestOptions {
  /** Send no bearer token even when signed in (auth endpoints that take credentials in the body). */
  anonymous?: boolean;
}

/**
 * The generic request helper: any method and path, bearer header from the current session, JSON body
 * when given (or FormData, sent as multipart), credentials included. Returns the parsed JSON (null for an empty answer), throws ApiError otherwise.
 * A 401 while signed in triggers one token refresh and one retry.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const response = await authorizedFetch(method, path, { body, anonymous: options.anonymous });
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return null as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * GET of a cursor-paged list whose body is an array: every page, following the server's `Link: <…>; rel="next"`
 * until there is none (docs/api.md).
 */
export async function apiRequestAllPages<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next !== null) {
    const response = await authorizedFetch('GET', next);
    if (!response.ok) throw await toApiError(response);
    items.push(...((await response.json()) as T[]));
    next = nextPageOf(response.headers.get('link'));
  }
  return items;
}

/** The target of `rel="next"` in a Link header, when it is a path on this server. */
function nextPageOf(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /^\s*<(\/[^>]*)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (match) return match[1]!;
  }
  return null;
}
