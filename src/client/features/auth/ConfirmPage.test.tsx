import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createQueryClient } from '@client/lib/query-client';
import { AuthDialogProvider } from './auth-dialog';
import { AuthProvider } from './AuthProvider';
import { ConfirmPage } from './ConfirmPage';
import { getSession, setSession } from '@client/lib/session-store';

const session = {
  access_token: 'a',
  refresh_token: 'r',
  expires_in: 3600,
  expires_at: Math.floor(Date.now() / 1000) + 3600,
  token_type: 'bearer',
  user: { id: 'u1', email: 'ada@example.com', user_metadata: {}, created_at: '', email_confirmed_at: null },
};

function renderAt(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <AuthProvider>
            <AuthDialogProvider>
              <ConfirmPage />
            </AuthDialogProvider>
          </AuthProvider>
        </Router>
      </QueryClientProvider>
    </StrictMode>,
  );
  return location;
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  setSession(null);
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setSession(null);
});

describe('ConfirmPage', () => {
  it('sends the one-time token once, signs the user in and goes home', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/api/auth/verify'
        ? new Response(JSON.stringify(session), { status: 200 })
        : new Response(JSON.stringify(session.user), { status: 200 }),
    );
    const location = renderAt('/auth/confirm?token=tok-1&type=email_change');
    await waitFor(() => expect(location.history.at(-1)).toBe('/'));
    const verifies = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/verify');
    expect(verifies).toHaveLength(1);
    expect(JSON.parse(verifies[0]![1].body)).toEqual({ type: 'email_change', token: 'tok-1' });
    expect(getSession()?.access_token).toBe('a');
  });

  it('explains a used or expired link', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ message: 'Email link is invalid or has expired', code: 'otp_expired' }), {
        status: 403,
      }),
    );
    renderAt('/auth/confirm?token=old');
    expect(await screen.findByText("We couldn't confirm your e-mail")).toBeTruthy();
    expect(screen.getByText('Email link is invalid or has expired')).toBeTruthy();
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({ type: 'signup', token: 'old' });
    expect(getSession()).toBeNull();
  });
});
