import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AiHealth } from '@shared/schemas/ai';
import { createQueryClient } from '@client/lib/query-client';

const mocks = vi.hoisted(() => ({ apiRequest: vi.fn(), toast: vi.fn() }));

vi.mock('@client/lib/api', async (original) => ({
  ...(await original<typeof import('@client/lib/api')>()),
  apiRequest: mocks.apiRequest,
}));
vi.mock('@client/components/ui/use-toast', () => ({ toast: mocks.toast }));

// The card's panel is its own chunk, imported when the card first shows: on a busy machine (a full test run on
// two cores) that takes longer than Testing Library's default one second of waiting.
configure({ asyncUtilTimeout: 5_000 });

const { AiSetupCard } = await import('./AiSetupCard');
const { reportAiError } = await import('@client/features/ai/errors');
const { ApiError } = await import('@client/lib/api');

const noProvider: AiHealth = { openai: false, anthropic: false, providers: [] };
const page = {
  providers: [],
  allowance: {
    monthly_tokens_per_user: null,
    admins_unlimited: true,
    default_monthly_tokens_per_user: 50_000,
    billing_enabled: false,
  },
  detected: [{ name: 'Ollama', base_url: 'http://127.0.0.1:11434/v1', models: ['llama3.2:3b'] }],
};

function serve(health: AiHealth) {
  mocks.apiRequest.mockImplementation(async (method: string, path: string) => {
    if (path === '/api/ai/health') return health;
    if (path === '/api/admin/ai' && method === 'GET') return page;
    if (path === '/api/admin/ai' && method === 'PUT') return page;
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function renderCard(isAdmin: boolean, onOpenSettings = vi.fn()) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return render(<AiSetupCard isAdmin={isAdmin} onOpenSettings={onOpenSettings} />, { wrapper });
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('the Set up AI card', () => {
  it('offers the local server found, and one click configures it', async () => {
    serve(noProvider);
    const openSettings = vi.fn();
    renderCard(true, openSettings);
    const card = await screen.findByRole('region', { name: 'Set up AI' });
    await waitFor(() => expect(card.textContent).toContain('Ollama found on this machine (llama3.2:3b)'));
    fireEvent.click(await screen.findByRole('button', { name: 'Use Ollama' }));
    await waitFor(() =>
      expect(mocks.apiRequest).toHaveBeenCalledWith('PUT', '/api/admin/ai', {
        providers: [
          {
            kind: 'openai-compatible',
            base_url: 'http://127.0.0.1:11434/v1',
            model: 'llama3.2:3b',
            enabled: true,
          },
        ],
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open AI settings' }));
    expect(openSettings).toHaveBeenCalled();
  });

  it('is not shown to members, nor when a provider exists', async () => {
    serve(noProvider);
    renderCard(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: 'Set up AI' })).toBeNull();
    cleanup();
    serve({
      openai: true,
      anthropic: false,
      providers: [
        { id: 'env-openai', kind: 'openai-compatible', reachable: true, latency_ms: 5, checked_at: null },
      ],
    });
    renderCard(true);
    await waitFor(() => expect(mocks.apiRequest).toHaveBeenCalledWith('GET', '/api/ai/health'));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('region', { name: 'Set up AI' })).toBeNull();
  });

  it('once dismissed it stays away, but an AI call without a provider brings it back instead of a toast', async () => {
    serve(noProvider);
    renderCard(true);
    await screen.findByRole('region', { name: 'Set up AI' });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Set up AI' })).toBeNull());

    reportAiError(new ApiError(503, 'AI is not configured', { code: 'ai_unavailable', message: 'x' }), {
      description: 'Failed to improve text. Please try again.',
    });
    await screen.findByRole('region', { name: 'Set up AI' });
    expect(mocks.toast).not.toHaveBeenCalled();
  });
});
