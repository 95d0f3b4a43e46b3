import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentMembers, SharedWithMeDocument } from '@shared/schemas/people';
import { ApiError } from '@client/lib/api';
import { createQueryClient } from '@client/lib/query-client';

const mocks = vi.hoisted(() => ({ apiRequest: vi.fn(), toast: vi.fn() }));

vi.mock('@client/lib/api', async (original) => ({
  ...(await original<typeof import('@client/lib/api')>()),
  apiRequest: mocks.apiRequest,
}));
vi.mock('@client/components/ui/use-toast', () => ({ useToast: () => ({ toast: mocks.toast }) }));

const { PeopleSection } = await import('./PeopleSection');
const { SharedWithMe } = await import('./SharedWithMe');

const DOC = '6f1c1c1e-0000-4000-8000-000000000001';

function wrap(children: ReactNode) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

const members: DocumentMembers = {
  limit: 3,
  members: [
    {
      id: 'm1',
      email: 'edith@example.com',
      name: 'Edith Editor',
      role: 'editor',
      invitedAt: '2026-11-27T10:00:00.000Z',
      acceptedAt: '2026-11-27T10:00:00.000Z',
    },
    {
      id: 'm2',
      email: 'new@example.com',
      name: null,
      role: 'viewer',
      invitedAt: '2026-11-27T11:00:00.000Z',
      acceptedAt: null,
    },
  ],
};

beforeEach(() => {
  mocks.apiRequest.mockReset();
  mocks.toast.mockReset();
});
afterEach(cleanup);

describe('PeopleSection', () => {
  it('lists members by name and waiting invitations by address with "Invited", and counts them against the limit', async () => {
    mocks.apiRequest.mockResolvedValue(members);
    render(wrap(<PeopleSection target={{ kind: 'document', id: DOC }} />));
    const rows = await screen.findAllByTestId('member-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('Edith Editor');
    expect(rows[0]?.textContent).not.toContain('Invited');
    expect(within(rows[0]!).getByRole('combobox', { name: 'Role of Edith Editor' }).textContent).toContain(
      'Can edit',
    );
    expect(rows[1]?.textContent).toContain('new@example.com');
    expect(rows[1]?.textContent).toContain('Invited');
    expect(screen.getByTestId('people-count').textContent).toContain('2 of 3');
  });

  it("shows the server's message when an invitation is refused", async () => {
    mocks.apiRequest.mockImplementation((method: string) =>
      method === 'POST'
        ? Promise.reject(
            new ApiError(403, 'Forbidden', {
              message: 'Your plan allows 3 people on a document',
              code: 'plan_limit',
            }),
          )
        : Promise.resolve(members),
    );
    render(wrap(<PeopleSection target={{ kind: 'document', id: DOC }} />));
    await screen.findAllByTestId('member-row');
    fireEvent.change(screen.getByPlaceholderText('name@example.com'), { target: { value: 'x@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Your plan allows 3 people on a document',
    );
    expect(mocks.apiRequest).toHaveBeenCalledWith('POST', `/api/documents/${DOC}/members`, {
      email: 'x@example.com',
      role: 'editor',
    });
  });

  it('removes a person only after asking', async () => {
    mocks.apiRequest.mockResolvedValue(members);
    render(wrap(<PeopleSection target={{ kind: 'document', id: DOC }} />));
    await screen.findAllByTestId('member-row');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Edith Editor' }));
    expect(screen.getByText('Remove Edith Editor? They lose access to this document at once.')).toBeTruthy();
    expect(mocks.apiRequest).not.toHaveBeenCalledWith('DELETE', expect.anything());
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(mocks.apiRequest).toHaveBeenCalledWith('DELETE', `/api/documents/${DOC}/members/m1`),
    );
  });
});

describe('SharedWithMe', () => {
  it('says plainly when nothing is shared', async () => {
    mocks.apiRequest.mockResolvedValue([]);
    render(wrap(<SharedWithMe />));
    expect(
      await screen.findByText('Nothing yet. When someone invites you to a document, it appears here.'),
    ).toBeTruthy();
  });

  it("shows each document with its owner and the person's role, linking to the member page", async () => {
    const shared: SharedWithMeDocument[] = [
      {
        id: DOC,
        title: 'Field notes',
        role: 'suggester',
        ownerName: 'Olive Owner',
        folder: null,
        updatedAt: '2026-11-27T10:00:00Z',
      },
    ];
    mocks.apiRequest.mockResolvedValue(shared);
    render(wrap(<SharedWithMe />));
    const card = await screen.findByTestId('shared-card');
    expect(card.textContent).toContain('Shared by Olive Owner');
    expect(card.textContent).toContain('Can suggest');
    expect(within(card).getByRole('link', { name: 'Field notes' }).getAttribute('href')).toBe(
      `/shared-with-me/${DOC}`,
    );
  });

  it('shows a shared folder that opens to its documents, beside the documents shared on their own', async () => {
    const folder = { id: 'f0000000-0000-4000-8000-000000000001', name: 'Novel' };
    const shared: SharedWithMeDocument[] = [
      {
        id: 'd1',
        title: 'Chapter one',
        role: 'editor',
        ownerName: 'Olive Owner',
        folder,
        updatedAt: '2026-11-27T10:00:00Z',
      },
      {
        id: 'd2',
        title: 'Chapter two',
        role: 'viewer',
        ownerName: 'Olive Owner',
        folder,
        updatedAt: '2026-11-26T10:00:00Z',
      },
      {
        id: DOC,
        title: 'Loose notes',
        role: 'suggester',
        ownerName: 'Otto',
        folder: null,
        updatedAt: '2026-11-25T10:00:00Z',
      },
    ];
    mocks.apiRequest.mockResolvedValue(shared);
    render(wrap(<SharedWithMe />));
    const item = await screen.findByTestId('shared-folder');
    const toggle = within(item).getByRole('button', { name: /Novel/ });
    expect(toggle.textContent).toContain('Shared by Olive Owner · 2 documents');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    // Closed, only the loose document shows.
    expect(screen.getAllByTestId('shared-card')).toHaveLength(1);
    fireEvent.click(toggle);
    const inside = within(item).getByRole('list', { name: 'Documents in Novel' });
    expect(
      within(inside)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Chapter one', 'Chapter two']);
    expect(inside.textContent).toContain('Can edit');
    expect(inside.textContent).toContain('Can view');
  });
});
