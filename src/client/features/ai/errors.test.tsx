import { afterEach, describe, expect, it, vi } from 'vitest';

const mocks = vi.hoisted(() => ({ toast: vi.fn() }));
vi.mock('@client/components/ui/use-toast', () => ({ toast: mocks.toast }));

const { reportAiError, aiNotSetUpText } = await import('./errors');
const { registerAiSettingsOpener } = await import('@client/features/settings');
const { ApiError } = await import('@client/lib/api');

const notSetUp = () =>
  new ApiError(503, 'AI is not configured on this server.', {
    message: 'AI is not configured on this server.',
    code: 'ai_unavailable',
  });

afterEach(() => vi.clearAllMocks());

describe('an AI call that finds no provider', () => {
  it('tells a member who can set AI up', () => {
    reportAiError(notSetUp(), { description: 'Failed to improve text. Please try again.' });
    expect(mocks.toast).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'AI is not set up yet',
        description: 'An admin can add a provider in Settings → AI.',
      }),
    );
    expect(aiNotSetUpText(notSetUp())).toBe(
      'AI is not set up yet. An admin can add a provider in Settings → AI.',
    );
  });

  it('gives an admin a button to the AI settings, every time', async () => {
    const open = vi.fn();
    const unregister = registerAiSettingsOpener(open);
    try {
      for (let i = 0; i < 2; i += 1) reportAiError(notSetUp(), { description: 'Failed.' });
      // The toast action comes with the toast library, imported on first use.
      await vi.waitFor(() => expect(mocks.toast).toHaveBeenCalledTimes(2), { timeout: 10_000 });
      const shown = mocks.toast.mock.calls[0]![0] as { title: string; description: string; action: any };
      expect(shown).toMatchObject({
        title: 'AI is not set up yet',
        description: 'Add a provider in Settings → AI to use the AI actions.',
      });
      shown.action.props.onClick();
      expect(open).toHaveBeenCalled();
    } finally {
      unregister();
    }
  });
});
