import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { AppNotification } from '@shared/notifications';
import { createQueryClient } from '@client/lib/query-client';

const mocks = vi.hoisted(() => ({ apiRequest: vi.fn() }));
vi.mock('@client/lib/api', async (original) => ({
  ...(await original<typeof import('@client/lib/api')>()),
  apiRequest: mocks.apiRequest,
}));

vi.mock('@client/features/auth', () => ({ useAuth: () => ({ user: { id: 'bea' } }) }));

const { NotificationsBell } = await import('./NotificationsBell');

const DOC = '6f1c1c1e-0000-4000-8000-000000000001';
const THREAD = '11111111-1111-4111-8111-111111111111';

const notification = (id: string, readAt: string | null): AppNotification => ({
  id,
  kind: 'mention',
  documentId: DOC,
  documentTitle: 'Novel',
  threadId: THREAD,
  actorName: 'Ada Author',
  excerpt: 'Look here @Bea',
  createdAt: new Date().toISOString(),
  readAt,
});

/** A server in memory: two notifications, one unread. */
function serve() {
  const rows = [notification('n1', null), notification('n2', '2026-11-28T07:00:00.000Z')];
  const unread = () => rows.filter((row) => !row.readAt).length;
  mocks.apiRequest.mockImplementation(async (method: string, path: string, body?: unknown) => {
    if (path === '/api/notifications/unread-count') return { unreadCount: unread() };
    if (path === '/api/notifications')
      return { notifications: structuredClone(rows), nextCursor: null, unreadCount: unread() };
    if (method === 'POST' && path === '/api/notifications/read') {
      const input = body as { ids?: string[]; all?: true };
      for (const row of rows)
        if (input.all || input.ids?.includes(row.id)) row.readAt ??= new Date().toISOString();
      return { unreadCount: unread() };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function setup() {
  const location = memoryLocation({ path: '/', record: true });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Router hook={location.hook}>
        <NotificationsBell />
      </Router>
    </QueryClientProvider>,
  );
  return location;
}

beforeEach(() => {
  mocks.apiRequest.mockReset();
  serve();
});
afterEach(cleanup);

describe('the notifications bell', () => {
  it('shows the unread count; choosing a notification marks it read and opens its thread', async () => {
    const location = setup();
    const bell = await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    expect(screen.getByTestId('notifications-count').textContent).toBe('1');
    fireEvent.click(bell);
    const list = await screen.findByTestId('notifications-list');
    const items = within(list).getAllByTestId('notification');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Ada Author mentioned you in “Novel” (unread)');
    expect(items[0]!.textContent).toContain('Look here @Bea');
    expect(items[1]!.hasAttribute('data-unread')).toBe(false);
    fireEvent.click(items[0]!);
    await waitFor(() => expect(location.history.at(-1)).toBe(`/editor/${DOC}?thread=${THREAD}`));
    expect(mocks.apiRequest).toHaveBeenCalledWith('POST', '/api/notifications/read', { ids: ['n1'] });
    await screen.findByRole('button', { name: 'Notifications' });
    expect(screen.queryByTestId('notifications-count')).toBeNull();
  });

  it('marks all as read', async () => {
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications (1 unread)' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(mocks.apiRequest).toHaveBeenCalledWith('POST', '/api/notifications/read', { all: true });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Mark all as read' }).hasAttribute('disabled')).toBe(true),
    );
  });
});
