import { Check, Pencil, RotateCcw, Trash2 } from 'lucide-react';
import { Fragment, memo, useState, type ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { timeAgo } from '@client/lib/time-ago';
import { cn } from '@client/lib/utils';
import { bodyParts, type Mention } from '@shared/mentions';
import { MAX_COMMENT_LENGTH, type Comment, type CommentThread } from '@shared/schemas/comments';
import type { CommentsApi } from '../api';
import { bodyForEditing, bodyForSending } from '../mention-text';
import type { useThreadActions } from '../queries';
import { rememberVisitorName, storedVisitorName } from '../visitor-name';
import { isSubmitKey } from './keys';
import { MentionTextarea } from './MentionTextarea';

type Actions = ReturnType<typeof useThreadActions>;

function failed(title: string) {
  return (error: unknown) => toast({ title, description: errorMessage(error), variant: 'destructive' });
}

interface ThreadCardProps {
  thread: CommentThread;
  active: boolean;
  /** The thread's passage is no longer in the text. */
  detached: boolean;
  canComment: boolean;
  /** A share-link visitor names themself before their first comment. */
  asksForName: boolean;
  actions: Actions;
  api: CommentsApi;
  onSelect: (threadId: string) => void;
}

/** One thread in the panel: its passage, its comments; the active one also its reply box and Resolve. */
export const ThreadCard = memo(function ThreadCard(props: ThreadCardProps) {
  const { thread, active, detached, canComment, actions, api, onSelect } = props;
  const [first, ...replies] = thread.comments;
  const resolved = thread.status === 'resolved';
  const setStatus = (status: CommentThread['status']) =>
    actions.setStatus.mutate(
      { threadId: thread.id, status },
      {
        onError: failed(
          status === 'resolved' ? 'The thread was not resolved' : 'The thread was not reopened',
        ),
      },
    );
  const statusButton = !thread.canResolve ? null : resolved ? (
    <Button variant="outline" size="sm" onClick={() => setStatus('open')}>
      <RotateCcw /> Reopen
    </Button>
  ) : (
    <Button variant="outline" size="sm" onClick={() => setStatus('resolved')}>
      <Check /> Resolve
    </Button>
  );
  return (
    <li
      className="[contain-intrinsic-size:auto_8rem] [content-visibility:auto]"
      data-testid="comment-thread"
      data-thread-id={thread.id}
      data-active={active || undefined}
    >
      <article
        aria-label={`Comment by ${first?.author.name ?? 'someone'}`}
        className={cn(
          'rounded-lg border bg-background p-3 text-sm shadow-xs transition-colors',
          active ? 'border-amber-500/70 ring-1 ring-amber-500/40' : 'hover:border-foreground/20',
        )}
      >
        <button
          type="button"
          onClick={() => onSelect(thread.id)}
          aria-expanded={active}
          className="block w-full rounded text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {detached && (
            <span
              className="mb-1 block text-xs font-medium text-muted-foreground"
              data-testid="thread-detached"
            >
              On deleted text
            </span>
          )}
          <blockquote
            className={cn(
              'mb-2 line-clamp-2 border-l-2 pl-2 text-xs text-muted-foreground',
              detached
                ? 'border-muted-foreground/40 line-through decoration-muted-foreground/40'
                : 'border-amber-500',
            )}
          >
            {thread.anchor.quote}
          </blockquote>
          {!active && first && (
            <>
              <CommentHeader comment={first} />
              <p className="line-clamp-3 whitespace-pre-wrap break-words">
                <CommentBody comment={first} />
              </p>
              {replies.length > 0 && (
                <span className="mt-1 block text-xs text-muted-foreground">
                  {replies.length === 1 ? '1 reply' : `${replies.length} replies`}
                </span>
              )}
            </>
          )}
        </button>
        {active && (
          <>
            <ol className="space-y-3">
              {thread.comments.map((comment) => (
                <CommentItem
                  key={comment.id}
                  comment={comment}
                  threadId={thread.id}
                  actions={actions}
                  api={api}
                />
              ))}
            </ol>
            {resolved && thread.resolvedBy && (
              <p className="mt-2 text-xs text-muted-foreground">Resolved by {thread.resolvedBy.name}</p>
            )}
            {canComment && !resolved ? (
              <ReplyBox {...props} statusButton={statusButton} />
            ) : (
              statusButton && <div className="mt-2 flex justify-end">{statusButton}</div>
            )}
            {thread.canDelete && <DeleteThread thread={thread} actions={actions} />}
          </>
        )}
      </article>
    </li>
  );
});

/** A comment's text, each mention as `@Name` set apart. */
function CommentBody({ comment }: { comment: Comment }) {
  return (
    <>
      {bodyParts(comment.body, comment.mentions).map((part, index) =>
        'mention' in part ? (
          <span key={index} className="qw-mention" data-mention={part.mention.id}>
            @{part.mention.name}
          </span>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

/** The question a delete asks first, with Delete and Cancel, in place of the buttons that asked it. */
function ConfirmDelete(props: { question: string; onDelete: () => void; onCancel: () => void }) {
  return (
    <>
      <span className="text-muted-foreground">{props.question}</span>
      <Button variant="destructive" size="sm" className="h-7 px-2" autoFocus onClick={props.onDelete}>
        Delete
      </Button>
      <Button variant="ghost" size="sm" className="h-7 px-2" onClick={props.onCancel}>
        Cancel
      </Button>
    </>
  );
}

/** "Delete thread", asked first: the owner may delete any thread, an author their own. */
function DeleteThread({ thread, actions }: { thread: CommentThread; actions: Actions }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="mt-2 flex flex-wrap items-center justify-end gap-1 border-t pt-2 text-xs">
      {confirming ? (
        <ConfirmDelete
          question="Delete this thread and its comments?"
          onCancel={() => setConfirming(false)}
          onDelete={() =>
            actions.removeThread.mutate(thread.id, {
              onError: failed('The thread was not deleted'),
              onSettled: () => setConfirming(false),
            })
          }
        />
      ) : (
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2 text-muted-foreground"
          onClick={() => setConfirming(true)}
        >
          <Trash2 /> Delete thread
        </Button>
      )}
    </div>
  );
}

function CommentHeader({ comment }: { comment: Comment }) {
  return (
    <span className="mb-0.5 flex items-baseline gap-2">
      <span className="min-w-0 truncate font-medium">{comment.author.name}</span>
      <time className="shrink-0 text-xs text-muted-foreground" dateTime={comment.createdAt}>
        {timeAgo(new Date(comment.createdAt))}
        {comment.editedAt && ' (edited)'}
      </time>
    </span>
  );
}

function CommentItem({
  comment,
  threadId,
  actions,
  api,
}: {
  comment: Comment;
  threadId: string;
  actions: Actions;
  api: CommentsApi;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState('');
  const [picked, setPicked] = useState<Mention[]>([]);
  const save = () => {
    if (!draft.trim()) return;
    actions.edit.mutate(
      { threadId, commentId: comment.id, body: bodyForSending(draft, picked) },
      { onSuccess: () => setEditing(false), onError: failed('The comment was not saved') },
    );
  };
  return (
    <li data-testid="comment">
      <CommentHeader comment={comment} />
      {editing ? (
        <div className="space-y-2">
          <MentionTextarea
            api={api}
            value={draft}
            onValueChange={setDraft}
            onPick={(person) => setPicked((list) => [...list, person])}
            onKeyDown={(event) => {
              if (isSubmitKey(event)) {
                event.preventDefault();
                save();
              } else if (event.key === 'Escape') {
                event.preventDefault();
                setEditing(false);
              }
            }}
            aria-label="Edit comment"
            maxLength={MAX_COMMENT_LENGTH}
            className="min-h-16"
            autoFocus
          />
          <div className="flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={() => setEditing(false)}>
              Cancel
            </Button>
            <Button size="sm" onClick={save} disabled={!draft.trim() || actions.edit.isPending}>
              Save
            </Button>
          </div>
        </div>
      ) : (
        <p className="whitespace-pre-wrap break-words">
          <CommentBody comment={comment} />
        </p>
      )}
      {comment.mine && !editing && (
        <div className="mt-1 flex flex-wrap items-center gap-1 text-xs">
          {confirming ? (
            <ConfirmDelete
              question="Delete this comment?"
              onCancel={() => setConfirming(false)}
              onDelete={() =>
                actions.remove.mutate(
                  { threadId, commentId: comment.id },
                  { onError: failed('The comment was not deleted'), onSettled: () => setConfirming(false) },
                )
              }
            />
          ) : (
            <>
              <Button
                variant="ghost"
                size="sm"
                className="h-7 px-2 text-muted-foreground"
                onClick={() => {
                  setDraft(bodyForEditing(comment.body, comment.mentions));
                  setPicked(comment.mentions);
                  setEditing(true);
                }}
              >
                <Pencil /> Edit
              </Button>
              <Button
                variant="ghost"
                size="sm"
                className="h-7 px-2 text-muted-foreground"
                onClick={() => setConfirming(true)}
              >
                <Trash2 /> Delete
              </Button>
            </>
          )}
        </div>
      )}
    </li>
  );
}

function ReplyBox({
  thread,
  actions,
  api,
  asksForName,
  statusButton,
}: ThreadCardProps & { statusButton: ReactNode }) {
  const [body, setBody] = useState('');
  const [picked, setPicked] = useState<Mention[]>([]);
  const [name, setName] = useState(storedVisitorName);
  const [named, setNamed] = useState(() => storedVisitorName() !== '');
  const send = () => {
    if (!body.trim() || actions.reply.isPending || (asksForName && !name.trim())) return;
    if (asksForName) rememberVisitorName(name.trim());
    actions.reply.mutate(
      {
        threadId: thread.id,
        reply: { body: bodyForSending(body, picked), ...(asksForName ? { authorName: name.trim() } : {}) },
      },
      {
        onSuccess: () => {
          setBody('');
          setPicked([]);
          setNamed(true);
        },
        onError: failed('The reply was not sent'),
      },
    );
  };
  return (
    <div className="mt-3 space-y-2">
      {asksForName && !named && (
        <Input
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Your name"
          aria-label="Your name"
          maxLength={80}
          autoComplete="name"
        />
      )}
      <MentionTextarea
        api={api}
        value={body}
        onValueChange={setBody}
        onPick={(person) => setPicked((list) => [...list, person])}
        onKeyDown={(event) => {
          if (isSubmitKey(event)) {
            event.preventDefault();
            send();
          }
        }}
        placeholder="Reply"
        aria-label="Reply"
        maxLength={MAX_COMMENT_LENGTH}
        className="min-h-14"
      />
      <div className="flex items-center justify-between gap-2">
        {statusButton ?? <span />}
        <Button
          size="sm"
          onClick={send}
          disabled={!body.trim() || (asksForName && !name.trim()) || actions.reply.isPending}
        >
          Reply
        </Button>
      </div>
    </div>
  );
}
