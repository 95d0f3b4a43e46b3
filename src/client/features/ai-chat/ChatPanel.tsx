import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { ArrowUp, Loader2, MessagesSquare, Square, Trash2, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { chatProse } from '@shared/ai/chat';
import { CHAT_MESSAGE_MAX_CHARS } from '@shared/constants';
import type { ChatConversation, ChatEdit, ChatMessage } from '@shared/schemas/ai-chat';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@client/components/ui/alert-dialog';
import { Button } from '@client/components/ui/button';
import { Textarea } from '@client/components/ui/textarea';
import { useUserSettings } from '@client/features/settings';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import { aiNotSetUpText, isAbort } from '@client/features/ai';
import { askChat, chatApi, chatQueryKey } from './api';
import { applyChatEdits, type ChatEditsOutcome } from './apply-edits';
import { renderChatMarkdown } from './markdown';

/** Prompts offered while the conversation is empty. */
const EXAMPLES = [
  'What is the weakest argument?',
  'Shorten the introduction',
  'Make every heading a question',
] as const;

/** Tailwind's lg breakpoint: from here the panel sits beside the text instead of over it. */
const SIDE_BY_SIDE_QUERY = '(min-width: 1024px)';

/** Rendered Markdown of an answer: headings small, lists indented, code shaded, within the panel's width. */
const ANSWER_CLASS =
  'min-w-0 text-sm leading-relaxed break-words [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:text-[0.85em] [&_h1]:mt-3 [&_h1]:mb-1 [&_h1]:text-base [&_h1]:font-semibold [&_h2]:mt-3 [&_h2]:mb-1 [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:mb-1 [&_h3]:font-semibold [&_li]:my-0.5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-5 [&_p]:my-2 [&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-2 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5 [&>:first-child]:mt-0 [&>:last-child]:mb-0';

export interface ChatPanelProps {
  documentId: string;
  /** The live editor the answers' changes are proposed in. */
  editor: Editor | null;
  open: boolean;
  onClose: () => void;
}

/**
 * Chat with the document (side panel; a full-width sheet on phones). The writer asks about the document
 * or for changes; answers stream as sanitized Markdown, and an answer's proposed changes land in the text
 * as one suggestion group to review. Stays mounted while closed so an answer in progress is not lost.
 */
export function ChatPanel({ documentId, editor, open, onClose }: ChatPanelProps) {
  const queryClient = useQueryClient();
  const { preferences } = useUserSettings();
  const headingId = useId();
  const inputId = useId();
  const conversation = useQuery({
    queryKey: chatQueryKey(documentId),
    queryFn: () => chatApi.conversation(documentId),
  });
  const [input, setInput] = useState('');
  const [pending, setPending] = useState<{ question: string; answer: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcomes, setOutcomes] = useState<Record<string, ChatEditsOutcome>>({});
  const [confirmClear, setConfirmClear] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const clear = useMutation({
    mutationFn: () => chatApi.clear(documentId),
    onSuccess: () => {
      queryClient.setQueryData<ChatConversation>(chatQueryKey(documentId), { messages: [] });
      setOutcomes({});
      setError(null);
      inputRef.current?.focus();
    },
    onError: (failure) => setError(errorMessage(failure)),
  });

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  useEffect(() => () => abortRef.current?.abort(), []);

  const messages = conversation.data?.messages ?? [];
  // Follow the conversation as it grows (and the answer as it streams).
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length, pending?.answer, open]);

  async function send(text: string) {
    const message = text.trim();
    if (!message || pending) return;
    if (message.length > CHAT_MESSAGE_MAX_CHARS) {
      setError(`Messages are at most ${CHAT_MESSAGE_MAX_CHARS.toLocaleString()} characters.`);
      return;
    }
    setInput('');
    setError(null);
    setPending({ question: message, answer: '' });
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const done = await askChat(documentId, message, {
        signal: controller.signal,
        onText: (answer) => setPending({ question: message, answer }),
      });
      queryClient.setQueryData<ChatConversation>(chatQueryKey(documentId), (old) => ({
        messages: [...(old?.messages ?? []), done.question, done.answer],
      }));
      const edits = done.answer.edits;
      if (edits.length > 0) {
        const outcome = editor
          ? applyChatEdits(editor, edits, preferences.aiChanges)
          : { applied: 0, missing: edits, groupId: '', preference: preferences.aiChanges };
        setOutcomes((all) => ({ ...all, [done.answer.id]: outcome }));
      }
    } catch (failure) {
      if (!isAbort(failure)) {
        setError(aiNotSetUpText(failure) ?? errorMessage(failure));
        setInput(message);
      }
    } finally {
      abortRef.current = null;
      setPending(null);
    }
  }

  function onInputKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(input);
    }
  }

  const empty = messages.length === 0 && !pending;

  return (
    <aside
      id="document-chat"
      aria-labelledby={headingId}
      data-testid="chat-panel"
      hidden={!open}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !confirmClear) {
          event.preventDefault();
          onClose();
        }
      }}
      className={cn(
        'fixed inset-0 z-40 flex flex-col bg-background text-foreground',
        'sm:inset-y-0 sm:right-0 sm:left-auto sm:w-96 sm:border-l sm:shadow-xl lg:shadow-none',
        !open && 'hidden',
      )}
    >
      <header className="flex items-center gap-2 border-b px-4 py-2.5">
        <MessagesSquare className="size-4 text-primary" aria-hidden="true" />
        <h2 id={headingId} className="text-sm font-semibold">
          Chat with the document
        </h2>
        <div className="ml-auto flex items-center gap-1">
          <Button
            type="button"
            variant="ghost"
            size="icon-sm"
            aria-label="Clear conversation"
            title="Clear conversation"
            disabled={messages.length === 0 || pending !== null || clear.isPending}
            onClick={() => setConfirmClear(true)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon-sm"
            aria-label="Close chat"
            title="Close chat (Esc)"
            onClick={onClose}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
      </header>

      <div
        ref={listRef}
        role="log"
        aria-label="Conversation"
        aria-live="polite"
        data-testid="chat-messages"
        className="flex flex-1 flex-col gap-4 overflow-y-auto px-4 py-4"
      >
        {conversation.isPending && <p className="text-sm text-muted-foreground">Loading conversation…</p>}
        {conversation.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(conversation.error)}
          </p>
        )}
        {empty && conversation.isSuccess && (
          <div className="my-auto space-y-3 text-center" data-testid="chat-empty">
            <MessagesSquare className="mx-auto size-8 text-muted-foreground/60" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">
              Ask about this document, or ask for changes: they arrive as suggestions to review.
            </p>
            <ul className="flex flex-col items-center gap-2">
              {EXAMPLES.map((example) => (
                <li key={example}>
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    className="h-auto py-1.5 whitespace-normal"
                    onClick={() => void send(example)}
                  >
                    {example}
                  </Button>
                </li>
              ))}
            </ul>
          </div>
        )}
        {messages.map((message) =>
          message.role === 'user' ? (
            <Question key={message.id} text={message.content} />
          ) : (
            <Answer
              key={message.id}
              message={message}
              outcome={outcomes[message.id]}
              onReview={(groupId) => {
                // Where the panel covers the text (below the lg breakpoint) it makes way first.
                if (!window.matchMedia(SIDE_BY_SIDE_QUERY).matches) onClose();
                editor?.view.dom
                  .querySelector(`[data-suggestion-id="${CSS.escape(groupId)}"]`)
                  ?.scrollIntoView({ block: 'center', behavior: 'smooth' });
              }}
            />
          ),
        )}
        {pending && (
          <>
            <Question text={pending.question} />
            <div aria-busy="true" data-testid="chat-answer" className="flex flex-col gap-1">
              {pending.answer ? (
                <MarkdownAnswer markdown={chatProse(pending.answer, { streaming: true })} />
              ) : (
                <p className="flex items-center gap-2 text-sm text-muted-foreground">
                  <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Thinking…
                </p>
              )}
            </div>
          </>
        )}
      </div>

      <form
        className="border-t p-3"
        onSubmit={(event) => {
          event.preventDefault();
          void send(input);
        }}
      >
        {error && (
          <p role="alert" className="mb-2 text-sm text-destructive">
            {error}
          </p>
        )}
        <label htmlFor={inputId} className="sr-only">
          Message
        </label>
        <div className="flex items-end gap-2">
          <Textarea
            ref={inputRef}
            id={inputId}
            rows={2}
            value={input}
            maxLength={CHAT_MESSAGE_MAX_CHARS}
            placeholder="Ask about the document or for a change…"
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onInputKeyDown}
            className="max-h-40 min-h-10 resize-none"
            data-testid="chat-input"
          />
          {pending ? (
            <Button
              type="button"
              size="icon"
              variant="outline"
              aria-label="Stop answering"
              title="Stop answering"
              onClick={() => abortRef.current?.abort()}
            >
              <Square aria-hidden="true" />
            </Button>
          ) : (
            <Button type="submit" size="icon" aria-label="Send" title="Send (Enter)" disabled={!input.trim()}>
              <ArrowUp aria-hidden="true" />
            </Button>
          )}
        </div>
        <p className="mt-1.5 text-[11px] text-muted-foreground">Enter to send, Shift+Enter for a new line</p>
      </form>

      <AlertDialog open={confirmClear} onOpenChange={setConfirmClear}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Clear this conversation?</AlertDialogTitle>
            <AlertDialogDescription>
              Every message about this document is deleted. Suggestions already in the text stay until you
              accept or reject them.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => clear.mutate()}>Clear</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </aside>
  );
}

function Question({ text }: { text: string }) {
  return (
    <div
      data-testid="chat-question"
      className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-3 py-2 text-sm whitespace-pre-wrap text-primary-foreground"
    >
      <span className="sr-only">You: </span>
      {text}
    </div>
  );
}

function MarkdownAnswer({ markdown }: { markdown: string }) {
  const html = useMemo(() => renderChatMarkdown(markdown), [markdown]);
  return <div className={ANSWER_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
}

function Answer({
  message,
  outcome,
  onReview,
}: {
  message: ChatMessage;
  outcome: ChatEditsOutcome | undefined;
  onReview: (groupId: string) => void;
}) {
  return (
    <div data-testid="chat-answer" className="flex flex-col gap-1.5">
      <MarkdownAnswer markdown={message.content} />
      {message.edits.length > 0 && <EditsNote edits={message.edits} outcome={outcome} onReview={onReview} />}
    </div>
  );
}

function EditsNote({
  edits,
  outcome,
  onReview,
}: {
  edits: ChatEdit[];
  outcome: ChatEditsOutcome | undefined;
  onReview: (groupId: string) => void;
}) {
  const count = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;
  return (
    <div
      className="rounded-md border border-dashed px-2.5 py-1.5 text-xs text-muted-foreground"
      data-testid="chat-edits"
    >
      <p className="flex items-center gap-2 font-medium text-foreground">
        <span>
          {outcome?.preference === 'apply'
            ? `${count(outcome.applied)} made`
            : `${count(edits.length)} proposed`}
        </span>
        {outcome && outcome.applied > 0 && outcome.preference !== 'apply' && (
          <Button
            type="button"
            variant="link"
            size="sm"
            className="ml-auto h-auto p-0 text-xs"
            onClick={() => onReview(outcome.groupId)}
          >
            Review in the text
          </Button>
        )}
      </p>
      {outcome && outcome.missing.length > 0 && (
        <>
          <p className="mt-1">
            {outcome.applied > 0 ? `${count(outcome.applied)} in the text; ` : ''}
            {outcome.missing.length} could not be found in the document:
          </p>
          <ul className="mt-1 list-disc pl-4">
            {outcome.missing.map((edit, i) => (
              <li key={i} className="line-clamp-2">
                “{edit.find}”
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
