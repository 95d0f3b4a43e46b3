import { QueryClientProvider } from '@tanstack/react-query';
import { Editor } from '@tiptap/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Comment, CommentThread } from '@shared/schemas/comments';
import { ApiError } from '@client/lib/api';
import { createQueryClient } from '@client/lib/query-client';

const mocks = vi.hoisted(() => ({ toast: vi.fn() }));
vi.mock('@client/components/ui/use-toast', () => ({
  toast: mocks.toast,
  useToast: () => ({ toast: mocks.toast }),
}));

const { CommentUi } = await import('../comment-ui');
const { CommentsButton, CommentsOverlay, CommentsSidePanel } = await import('./CommentControls');
const { createEditorExtensions } = await import('@shared/editor/extensions');
type CommentsApi = import('../api').CommentsApi;

const DOC = '6f1c1c1e-0000-4000-8000-000000000001';
const NOW = '2026-11-28T07:00:00.000Z';

beforeAll(() => {
  // jsdom lays nothing out: ProseMirror asks for rectangles when it places the composer and scrolls.
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect(10, 10, 10, 10);
  Element.prototype.scrollIntoView = () => {};
});

function comment(threadId: string, body: string, mine = true): Comment {
  return {
    id: crypto.randomUUID(),
    threadId,
    author: { id: 'me', name: 'Ada' },
    body,
    createdAt: NOW,
    editedAt: null,
    mine,
  };
}

/** The server's threads in memory; the document's marks are added by the test, as the server would. */
function fakeApi(threads: CommentThread[] = []) {
  const api: CommentsApi = {
    documentId: DOC,
    list: vi.fn(async () => ({ threads: structuredClone(threads), nextCursor: null })),
    create: vi.fn(async (body) => {
      const thread: CommentThread = {
        id: body.id,
        documentId: DOC,
        anchor: { quote: body.anchor.quote, prefix: '', suffix: '' },
        status: 'open',
        resolvedAt: null,
        resolvedBy: null,
        createdAt: NOW,
        comments: [comment(body.id, body.body)],
        canResolve: true,
      };
      threads.push(thread);
      return thread;
    }),
    reply: vi.fn(async (threadId, reply) => {
      const added = comment(threadId, reply.body);
      threads.find((t) => t.id === threadId)!.comments.push(added);
      return added;
    }),
    edit: vi.fn(),
    remove: vi.fn(),
    setStatus: vi.fn(async (threadId, status) => {
      const thread = threads.find((t) => t.id === threadId)!;
      thread.status = status;
      return structuredClone(thread);
    }),
    removeThread: vi.fn(),
  };
  return api;
}

let editor: Editor | null = null;
beforeEach(() => mocks.toast.mockReset());
afterEach(() => {
  cleanup();
  editor?.destroy();
  editor = null;
});

function setup(api: CommentsApi, content: string) {
  editor = new Editor({
    extensions: [
      ...createEditorExtensions({ history: false }),
      CommentUi.configure({ api, canComment: true, asksForName: false }),
    ],
    content,
  });
  const listeners = new Set<(data: { payload: string }) => void>();
  const live = {
    on: (_: 'stateless', listener: (data: { payload: string }) => void) => listeners.add(listener),
    off: (_: 'stateless', listener: (data: { payload: string }) => void) => listeners.delete(listener),
  };
  const target = editor;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <CommentsButton editor={target} />
      <CommentsOverlay editor={target} live={live} />
      <CommentsSidePanel editor={target} />
    </QueryClientProvider>,
  );
  const say = (payload: string) => act(() => listeners.forEach((listener) => listener({ payload })));
  return { editor: target, say };
}

const pressComment = () => fireEvent.keyDown(window, { key: 'm', code: 'KeyM', ctrlKey: true, altKey: true });

describe('writing a comment', () => {
  it('comments on the selection with Ctrl+Alt+M and opens the panel on the new thread', async () => {
    const api = fakeApi();
    const { editor: target } = setup(api, '<p>The quick brown fox</p>');
    target.commands.setTextSelection({ from: 5, to: 10 });
    pressComment();
    const box = await screen.findByRole('textbox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'Too fast?' } });
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });

    await waitFor(() => expect(api.create).toHaveBeenCalledTimes(1));
    const sent = vi.mocked(api.create).mock.calls[0]![0];
    expect(sent).toMatchObject({
      anchor: { quote: 'quick', prefix: 'The ', suffix: ' brown fox', from: 5, to: 10 },
      body: 'Too fast?',
    });
    const panel = await screen.findByRole('complementary', { name: 'Comments' });
    const thread = await within(panel).findByTestId('comment-thread');
    expect(thread.getAttribute('data-active')).not.toBeNull();
    expect(within(thread).getByText('Too fast?')).toBeTruthy();
    expect(screen.queryByTestId('comment-composer')).toBeNull();
    expect(screen.getByRole('button', { name: /^Comments\s*1\s*open$/u })).toBeTruthy();
  });

  it('says calmly that the text changed when the server cannot find the passage', async () => {
    const api = fakeApi();
    vi.mocked(api.create).mockRejectedValueOnce(
      new ApiError(409, '{}', { message: 'Not found', code: 'anchor_not_found' }),
    );
    const { editor: target } = setup(api, '<p>The quick brown fox</p>');
    target.commands.setTextSelection({ from: 5, to: 10 });
    pressComment();
    const box = await screen.findByRole('textbox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: 'Hm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    await waitFor(() =>
      expect(mocks.toast).toHaveBeenCalledWith(
        expect.objectContaining({ title: 'The text you selected has changed' }),
      ),
    );
  });

  it('Escape closes the composer without sending', async () => {
    const api = fakeApi();
    const { editor: target } = setup(api, '<p>The quick brown fox</p>');
    target.commands.setTextSelection({ from: 5, to: 10 });
    pressComment();
    const box = await screen.findByRole('textbox', { name: 'Comment' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByTestId('comment-composer')).toBeNull();
    expect(api.create).not.toHaveBeenCalled();
  });
});

describe('the panel', () => {
  const A = '11111111-1111-4111-8111-111111111111';
  const B = '22222222-2222-4222-8222-222222222222';
  const thread = (id: string, quote: string): CommentThread => ({
    id,
    documentId: DOC,
    anchor: { quote, prefix: '', suffix: '' },
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    createdAt: NOW,
    comments: [comment(id, `About ${quote}`)],
    canResolve: true,
  });

  it('shows the empty state with the shortcut', async () => {
    setup(fakeApi(), '<p>Text</p>');
    fireEvent.click(screen.getByTestId('comments-button'));
    expect((await screen.findByTestId('comments-empty')).textContent).toBe(
      'No comments yet. Select text and press Ctrl+Alt+M to comment.',
    );
  });

  it('marks a thread whose passage is gone as on deleted text, replies, resolves and reopens', async () => {
    const api = fakeApi([thread(A, 'alpha'), thread(B, 'gone')]);
    setup(api, `<p>One <span data-comment-thread="${A}">alpha</span>.</p>`);
    fireEvent.click(await screen.findByRole('button', { name: /^Comments\s*2\s*open$/u }));
    const cards = await screen.findAllByTestId('comment-thread');
    expect(within(cards[0]!).queryByText('On deleted text')).toBeNull();
    expect(within(cards[1]!).getByText('On deleted text')).toBeTruthy();

    fireEvent.click(within(cards[0]!).getByText('About alpha'));
    const reply = await within(cards[0]!).findByRole('textbox', { name: 'Reply' });
    fireEvent.change(reply, { target: { value: 'Agreed' } });
    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Reply' }));
    expect(await within(cards[0]!).findByText('Agreed')).toBeTruthy();

    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(screen.getAllByTestId('comment-thread')).toHaveLength(1));
    // Resolved: no longer highlighted in the text.
    await waitFor(() => expect(editor!.view.dom.querySelector('.qw-comment')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /Resolved/ }));
    const resolved = await screen.findByTestId('comment-thread');
    fireEvent.click(within(resolved).getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(api.setStatus).toHaveBeenLastCalledWith(A, 'open'));
  });

  it('a click on a highlight in the text opens its thread', async () => {
    const api = fakeApi([thread(A, 'alpha')]);
    const { editor: target } = setup(api, `<p>One <span data-comment-thread="${A}">alpha</span>.</p>`);
    await waitFor(() => expect(api.list).toHaveBeenCalled());
    const highlight = target.view.dom.querySelector('.qw-comment')!;
    fireEvent.click(highlight);
    const card = await screen.findByTestId('comment-thread');
    expect(card.getAttribute('data-active')).not.toBeNull();
    expect(highlight.closest('.tiptap')?.querySelector('.qw-comment-active')).not.toBeNull();
  });

  it('refreshes the threads when the server says they changed', async () => {
    const api = fakeApi();
    const { say } = setup(api, '<p>Text</p>');
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(1));
    say(JSON.stringify({ type: 'title', title: 'x' }));
    say(JSON.stringify({ type: 'comments' }));
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
  });
});
