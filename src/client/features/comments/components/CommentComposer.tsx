import type { Editor } from '@tiptap/core';
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { ApiError, errorMessage } from '@client/lib/api';
import type { Mention } from '@shared/mentions';
import { MAX_COMMENT_LENGTH } from '@shared/schemas/comments';
import type { CommentUiStorage } from '../comment-ui';
import { COMPOSER_WIDTH_PX } from '../constants';
import { bodyForSending } from '../mention-text';
import { useThreadActions } from '../queries';
import type { CommentsUiState } from '../store';
import { rememberVisitorName, storedVisitorName } from '../visitor-name';
import { isSubmitKey } from './keys';
import { MentionTextarea } from './MentionTextarea';

/** The margin kept between the composer and the window's edges, in pixels. */
const EDGE_PX = 8;

/** The small box under the selection where a new thread's first comment is written. */
export function CommentComposer({
  editor,
  comments,
  composer,
}: {
  editor: Editor;
  comments: CommentUiStorage;
  composer: NonNullable<CommentsUiState['composer']>;
}) {
  const { store, options } = comments;
  const actions = useThreadActions(options.api!);
  const [body, setBody] = useState('');
  const [picked, setPicked] = useState<Mention[]>([]);
  const [name, setName] = useState(storedVisitorName);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const titleId = useId();
  // Asked once: the name given with a first comment is kept in this browser.
  const [needsName] = useState(() => options.asksForName && !storedVisitorName());

  useEffect(() => {
    (needsName ? nameInput : textarea).current?.focus();
    // Only as it opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const close = () => {
    store.set({ composer: null });
    editor.commands.focus();
  };

  const submit = () => {
    if (!body.trim() || actions.create.isPending) return;
    if (options.asksForName && !name.trim()) {
      nameInput.current?.focus();
      return;
    }
    const id = crypto.randomUUID();
    if (options.asksForName) rememberVisitorName(name.trim());
    actions.create.mutate(
      {
        id,
        anchor: composer.anchor,
        body: bodyForSending(body, picked),
        ...(options.asksForName ? { authorName: name.trim() } : {}),
      },
      {
        onSuccess: () => {
          store.set({ composer: null, panelOpen: true, filter: 'open', activeThreadId: id });
          options.onThreadCreated?.();
        },
        onError: (error) => {
          const moved = error instanceof ApiError && error.code === 'anchor_not_found';
          toast({
            title: moved ? 'The text you selected has changed' : 'The comment was not saved',
            description: moved ? 'Select it again to comment on it.' : errorMessage(error),
            variant: moved ? undefined : 'destructive',
          });
          if (moved) close();
        },
      },
    );
  };

  const width = Math.min(COMPOSER_WIDTH_PX, window.innerWidth - EDGE_PX * 2);
  const left = Math.max(EDGE_PX, Math.min(composer.left, window.innerWidth - width - EDGE_PX));
  // In the body, so its page coordinates hold whatever the host page's layout.
  return createPortal(
    <div
      role="dialog"
      aria-labelledby={titleId}
      data-testid="comment-composer"
      className="absolute z-50 space-y-2 rounded-lg border bg-popover p-3 text-popover-foreground shadow-lg"
      style={{ top: composer.top, left, width }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          close();
        }
      }}
    >
      <p id={titleId} className="text-xs font-medium text-muted-foreground">
        Comment on “<span className="line-clamp-1 inline">{composer.anchor.quote}</span>”
      </p>
      {needsName && (
        <Input
          ref={nameInput}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Your name"
          aria-label="Your name"
          maxLength={80}
          autoComplete="name"
        />
      )}
      <MentionTextarea
        api={options.api!}
        textareaRef={textarea}
        value={body}
        onValueChange={setBody}
        onPick={(person) => setPicked((list) => [...list, person])}
        onKeyDown={(event) => {
          if (isSubmitKey(event)) {
            event.preventDefault();
            submit();
          }
        }}
        placeholder="Write a comment"
        aria-label="Comment"
        maxLength={MAX_COMMENT_LENGTH}
        className="min-h-16"
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={close}>
          Cancel
        </Button>
        <Button size="sm" onClick={submit} disabled={!body.trim() || actions.create.isPending}>
          {actions.create.isPending ? 'Commenting…' : 'Comment'}
        </Button>
      </div>
    </div>,
    document.body,
  );
}
