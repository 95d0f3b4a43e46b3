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
const EDITH = '33333333-3333-4333-8333-333333333333';
const OLIVE = '44444444-4444-4444-8444-444444444444';

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
    mentions: [],
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
        canDelete: true,
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
    removeThread: vi.fn(async (threadId) => {
      threads.splice(
        threads.findIndex((t) => t.id === threadId),
        1,
      );
    }),
    mentionable: vi.fn(async () => ({
      people: [
        { id: EDITH, name: 'Edith Editor', email: 'edith@example.com' },
        { id: OLIVE, name: 'Olive Owner', email: 'olive@example.com' },
      ],
    })),
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

function setup(api: CommentsApi, content: string, canComment = true) {
  editor = new Editor({
    extensions: [
      ...createEditorExtensions({ history: false }),
      CommentUi.configure({ api, canComment, asksForName: false }),
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
    canDelete: true,
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

describe('mentions', () => {
  it('suggests the people on the document after @, picks one with the keyboard and sends a mention', async () => {
    const api = fakeApi();
    const { editor: target } = setup(api, '<p>The quick brown fox</p>');
    target.commands.setTextSelection({ from: 5, to: 10 });
    pressComment();
    const box = (await screen.findByRole('textbox', { name: 'Comment' })) as HTMLTextAreaElement;
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    expect(box.getAttribute('aria-controls')).toBeNull();
    fireEvent.change(box, { target: { value: 'Ask @o', selectionStart: 6 } });
    const list = await screen.findByRole('listbox', { name: 'People to mention' });
    // "o" starts Olive's name and no word of Edith's; her address has an "o" inside only.
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Olive Ownerolive@example.com',
      'Edith Editoredith@example.com',
    ]);
    expect(box.getAttribute('aria-controls')).toBe(list.id);
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Ask @Edith Editor ');
    expect(screen.queryByRole('listbox')).toBeNull();
    // Enter picked; it did not send.
    expect(api.create).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(api.create).toHaveBeenCalledTimes(1));
    expect(vi.mocked(api.create).mock.calls[0]![0].body).toBe(`Ask <@${EDITH}> `);
  });

  it('Escape closes the suggestions and keeps the composer open', async () => {
    const api = fakeApi();
    const { editor: target } = setup(api, '<p>The quick brown fox</p>');
    target.commands.setTextSelection({ from: 5, to: 10 });
    pressComment();
    const box = await screen.findByRole('textbox', { name: 'Comment' });
    fireEvent.change(box, { target: { value: '@', selectionStart: 1 } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByTestId('comment-composer')).toBeTruthy();
  });

  it('shows a mention as @Name', async () => {
    const A = '55555555-5555-4555-8555-555555555555';
    const first = { ...comment(A, `Over to <@${EDITH}>.`), mentions: [{ id: EDITH, name: 'Edith Editor' }] };
    const api = fakeApi([
      {
        id: A,
        documentId: DOC,
        anchor: { quote: 'fox', prefix: '', suffix: '' },
        status: 'open',
        resolvedAt: null,
        resolvedBy: null,
        createdAt: NOW,
        comments: [first],
        canResolve: true,
        canDelete: true,
      },
    ]);
    setup(api, `<p>The <span data-comment-thread="${A}">fox</span></p>`);
    fireEvent.click(await screen.findByRole('button', { name: /^Comments\s*1\s*open$/u }));
    const card = await screen.findByTestId('comment-thread');
    expect(card.textContent).toContain('Over to @Edith Editor.');
    expect(card.querySelector(`[data-mention="${EDITH}"]`)?.textContent).toBe('@Edith Editor');
  });
});

describe('who may do what in the panel', () => {
  const A = '66666666-6666-4666-8666-666666666666';
  const threadOf = (rights: { canResolve: boolean; canDelete: boolean }): CommentThread => ({
    id: A,
    documentId: DOC,
    anchor: { quote: 'fox', prefix: '', suffix: '' },
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    createdAt: NOW,
    comments: [comment(A, 'Someone else wrote this', false)],
    ...rights,
  });

  it("offers the owner Delete thread on anyone's thread, asked first", async () => {
    const api = fakeApi([threadOf({ canResolve: true, canDelete: true })]);
    setup(api, `<p>The <span data-comment-thread="${A}">fox</span></p>`);
    fireEvent.click(await screen.findByRole('button', { name: /^Comments\s*1\s*open$/u }));
    fireEvent.click(await screen.findByText('Someone else wrote this'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete thread' }));
    expect(api.removeThread).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.removeThread).toHaveBeenCalledWith(A));
    await waitFor(() => expect(screen.queryByTestId('comment-thread')).toBeNull());
  });

  it('shows a viewer the threads read-only: no reply box, no Resolve, no Delete thread', async () => {
    const api = fakeApi([threadOf({ canResolve: false, canDelete: false })]);
    setup(api, `<p>The <span data-comment-thread="${A}">fox</span></p>`, false);
    fireEvent.click(await screen.findByRole('button', { name: /^Comments\s*1\s*open$/u }));
    const card = await screen.findByTestId('comment-thread');
    fireEvent.click(within(card).getByText('Someone else wrote this'));
    await waitFor(() => expect(card.getAttribute('data-active')).not.toBeNull());
    expect(within(card).queryByRole('textbox')).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Resolve' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Delete thread' })).toBeNull();
  });

  it("opens the panel at the thread the address names (a notification's link)", async () => {
    window.history.replaceState(null, '', `/editor/${DOC}?thread=${A}`);
    try {
      const api = fakeApi([threadOf({ canResolve: true, canDelete: true })]);
      setup(api, `<p>The <span data-comment-thread="${A}">fox</span></p>`);
      const card = await screen.findByTestId('comment-thread');
      await waitFor(() => expect(card.getAttribute('data-active')).not.toBeNull());
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
});
