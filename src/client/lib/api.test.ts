import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, setSession } from './session-store';
import type { AuthSession } from './session-store';
import { streamAi } from '@client/features/ai';
import { ApiError, apiRequest, apiRequestAllPages } from './api';
import { createQueryClient, getQueryFn } from './query-client';

function session(overrides: Partial<AuthSession> = {}): AuthSession {
  return {
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: 'bearer',
    user: {
      id: 'u1',
      email: 'ada@example.com',
      user_metadata: { full_name: 'Ada' },
      created_at: '',
      email_confirmed_at: null,
    },
    ...overrides,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  setSession(null);
});

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(null);
});

describe('apiRequest', () => {
  it('sends JSON with the bearer token of the current session and credentials', async () => {
    setSession(session());
    fetchMock.mockResolvedValueOnce(json(201, { id: 'd1' }));
    const result = await apiRequest<{ id: string }>('POST', '/api/documents', { title: 'T' });
    expect(result).toEqual({ id: 'd1' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/documents');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.headers.Authorization).toBe('Bearer access-1');
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"title":"T"}');
  });

  it('sends no body, no content type and no token when there is neither', async () => {
    fetchMock.mockResolvedValueOnce(json(200, []));
    await apiRequest('GET', '/api/plans');
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init.body).toBeUndefined();
    expect(init.headers['Content-Type']).toBeUndefined();
    expect(init.headers.Authorization).toBeUndefined();
  });

  it("throws ApiError '{status}: {body}' with status, code and parsed body", async () => {
    fetchMock.mockResolvedValueOnce(json(404, { message: 'Document not found', code: 'not_found' }));
    const error = await apiRequest('GET', '/api/documents/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe('404: {"message":"Document not found","code":"not_found"}');
    expect(apiError.status).toBe(404);
    expect(apiError.code).toBe('not_found');
    expect(apiError.serverMessage).toBe('Document not found');
  });

  it('uses the status text when the error body is empty', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad Gateway');
  });

  it('turns weak-password reason codes into sentences', async () => {
    fetchMock.mockResolvedValueOnce(
      json(422, { message: 'Password is too weak', code: 'weak_password', reasons: ['length', 'common'] }),
    );
    const error = (await apiRequest('POST', '/api/auth/signup', {}).catch((e: unknown) => e)) as ApiError;
    expect(error.reasons).toEqual([
      'Use at least 8 characters.',
      'Avoid common passwords that are easy to guess.',
    ]);
  });

  it('answers null for 204', async () => {
    setSession(session());
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(apiRequest('DELETE', '/api/documents/d1')).resolves.toBeNull();
  });

  it('refreshes a session about to expire before the request', async () => {
    setSession(session({ expires_at: Math.floor(Date.now() / 1000) + 30 }));
    fetchMock
      .mockResolvedValueOnce(json(200, session({ access_token: 'access-2', refresh_token: 'refresh-2' })))
      .mockResolvedValueOnce(json(200, []));
    await apiRequest('GET', '/api/documents');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/token?grant_type=refresh_token');
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ refresh_token: 'refresh-1' });
    expect(fetchMock.mock.calls[1]![1].headers.Authorization).toBe('Bearer access-2');
    expect(getSession()?.refresh_token).toBe('refresh-2');
    expect(JSON.parse(localStorage.getItem('quillwright.auth.session')!).access_token).toBe('access-2');
  });

  it('on a 401 refreshes once and retries with the new token', async () => {
    setSession(session());
    fetchMock
      .mockResolvedValueOnce(json(401, { message: 'Token expired', code: 'bad_jwt' }))
      .mockResolvedValueOnce(json(200, session({ access_token: 'access-2', refresh_token: 'refresh-2' })))
      .mockResolvedValueOnce(json(200, { ok: true }));
    await expect(apiRequest('GET', '/api/me/settings')).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls[2]![1].headers.Authorization).toBe('Bearer access-2');
  });

  it('the AI stream goes through the same authorized fetch: a 401 refreshes once and retries', async () => {
    setSession(session());
    const stream = new Response(
      'event: delta\ndata: {"delta":"Hi"}\n\nevent: done\ndata: {"text":"Hi"}\n\n',
      {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
      },
    );
    fetchMock
      .mockResolvedValueOnce(json(401, { message: 'Token expired', code: 'bad_jwt' }))
      .mockResolvedValueOnce(json(200, session({ access_token: 'access-2', refresh_token: 'refresh-2' })))
      .mockResolvedValueOnce(stream);
    const result = await streamAi('improve', { text: 'hi' }, { signal: new AbortController().signal });
    expect(result).toMatchObject({ text: 'Hi' });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    const [url, init] = fetchMock.mock.calls[2]!;
    expect(url).toBe('/api/ai/improve');
    expect(init.headers.Authorization).toBe('Bearer access-2');
    expect(init.headers.Accept).toBe('text/event-stream');
  });

  it('signs out when the refresh token is refused', async () => {
    setSession(session());
    fetchMock
      .mockResolvedValueOnce(json(401, { message: 'Token expired', code: 'bad_jwt' }))
      .mockResolvedValueOnce(json(401, { message: 'Invalid Refresh Token', code: 'refresh_token_invalid' }));
    const error = (await apiRequest('GET', '/api/documents').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(getSession()).toBeNull();
    expect(localStorage.getItem('quillwright.auth.session')).toBeNull();
  });
});

describe('query client', () => {
  it('never refetches on its own and never retries', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    });
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('fetches the first element of the query key; a 401 throws or returns null by option', async () => {
    fetchMock.mockResolvedValueOnce(json(200, [{ id: 1 }]));
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['/api/documents'] })).resolves.toEqual([{ id: 1 }]);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/documents');

    fetchMock.mockResolvedValueOnce(json(401, { message: 'Auth session missing!', code: 'session_missing' }));
    await expect(client.fetchQuery({ queryKey: ['/api/auth/user'] })).rejects.toThrow('401: ');

    fetchMock.mockResolvedValueOnce(json(401, { message: 'Auth session missing!', code: 'session_missing' }));
    const returnNull = getQueryFn({ on401: 'returnNull' });
    await expect(
      client.fetchQuery({ queryKey: ['/api/auth/user', 2], queryFn: returnNull }),
    ).resolves.toBeNull();
  });
});

describe('apiRequestAllPages', () => {
  it('follows Link rel="next" until a page has none, joining the pages in order', async () => {
    setSession(session());
    fetchMock
      .mockResolvedValueOnce(
        new Response(JSON.stringify([1, 2]), {
          status: 200,
          headers: { 'Content-Type': 'application/json', Link: '</api/list?limit=2&cursor=abc>; rel="next"' },
        }),
      )
      .mockResolvedValueOnce(json(200, [3]));
    expect(await apiRequestAllPages<number>('/api/list?limit=2')).toEqual([1, 2, 3]);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/list?limit=2',
      '/api/list?limit=2&cursor=abc',
    ]);
  });

  it('throws the ApiError of a page that fails', async () => {
    setSession(session());
    fetchMock.mockResolvedValueOnce(json(400, { message: 'bad cursor', code: 'invalid_cursor' }));
    await expect(apiRequestAllPages('/api/list')).rejects.toMatchObject({
      status: 400,
      code: 'invalid_cursor',
    });
  });
});
