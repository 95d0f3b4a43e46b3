import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { errorMessage } from '@client/lib/api';
import type { DocumentGoal } from '@shared/schemas/goals';
import { Flame } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useClearGoal, useGoal, useSetGoal } from './api';
import { GoalRing, wordsLabel } from './GoalRing';
import { WordsChart } from './WordsChart';

/** While the popover is open its numbers follow the writing (words are counted as the server stores them). */
const OPEN_REFRESH_MS = 10_000;

interface GoalsMenuProps {
  documentId: string;
  /** The editor's live word count. */
  words: number;
  defaultOpen?: boolean;
}

/** The progress ring and, on click, the Goals popover: target and deadline, today's words, streak, history. */
export function GoalsMenu({ documentId, words, defaultOpen = false }: GoalsMenuProps) {
  const [open, setOpen] = useState(defaultOpen);
  const goal = useGoal(documentId, { refetchInterval: open ? OPEN_REFRESH_MS : false });
  const data = goal.data;
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void goal.refetch();
      }}
    >
      <PopoverTrigger asChild>
        <GoalRing
          words={words}
          target={data?.target_words ?? null}
          dailyTarget={data?.daily_target ?? null}
          aria-haspopup="dialog"
        />
      </PopoverTrigger>
      <PopoverContent
        align="end"
        collisionPadding={8}
        aria-label="Goals"
        className="max-h-[calc(var(--radix-popover-content-available-height)-0.5rem)] w-[min(20rem,calc(100vw-1rem))] space-y-4 overflow-y-auto"
        data-testid="goals-popover"
      >
        <h2 className="text-sm font-semibold">Goals</h2>
        {data ? (
          <GoalsBody
            key={`${data.target_words}-${data.deadline}`}
            documentId={documentId}
            goal={data}
            words={words}
          />
        ) : goal.isError ? (
          <p className="text-sm text-destructive">{errorMessage(goal.error)}</p>
        ) : (
          <p className="text-sm text-muted-foreground">Loading…</p>
        )}
      </PopoverContent>
    </Popover>
  );
}

function GoalsBody({ documentId, goal, words }: { documentId: string; goal: DocumentGoal; words: number }) {
  const targetId = useId();
  const deadlineId = useId();
  const [target, setTarget] = useState(goal.target_words?.toString() ?? '');
  const [deadline, setDeadline] = useState(goal.deadline ?? '');
  const setGoal = useSetGoal(documentId);
  const clearGoal = useClearGoal(documentId);
  const error = setGoal.error ?? clearGoal.error;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const targetWords = Number.parseInt(target, 10);
    if (!Number.isFinite(targetWords) || targetWords < 1) return;
    setGoal.mutate({ target_words: targetWords, deadline: deadline || null });
  };

  const left = goal.target_words === null ? null : Math.max(0, goal.target_words - words);
  return (
    <div className="space-y-4">
      <form className="space-y-3" onSubmit={save}>
        <div className="grid grid-cols-2 gap-2">
          <div className="space-y-1">
            <Label htmlFor={targetId}>Word target</Label>
            <Input
              id={targetId}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              required
              placeholder="50000"
              value={target}
              onChange={(event) => setTarget(event.target.value)}
            />
          </div>
          <div className="space-y-1">
            <Label htmlFor={deadlineId}>Deadline</Label>
            <Input
              id={deadlineId}
              type="date"
              min={goal.today}
              value={deadline}
              onChange={(event) => setDeadline(event.target.value)}
            />
          </div>
        </div>
        <div className="flex gap-2">
          <Button type="submit" size="sm" disabled={setGoal.isPending}>
            Save goal
          </Button>
          {goal.target_words !== null && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              disabled={clearGoal.isPending}
              onClick={() => clearGoal.mutate()}
            >
              Clear goal
            </Button>
          )}
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(error)}
          </p>
        )}
      </form>

      {goal.target_words !== null && (
        <p className="text-sm" data-testid="goal-progress">
          {words.toLocaleString()} of {wordsLabel(goal.target_words)}
          {left ? ` · ${left.toLocaleString()} to go` : ' · Target reached'}
          {goal.daily_target !== null && (
            <span className="block text-muted-foreground">Daily target: {wordsLabel(goal.daily_target)}</span>
          )}
        </p>
      )}

      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div className="rounded-md border p-2">
          <dt className="text-xs text-muted-foreground">Today's words</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="goal-today">
            {goal.today_words.toLocaleString()}
          </dd>
        </div>
        <div className="rounded-md border p-2">
          <dt className="text-xs text-muted-foreground">Streak</dt>
          <dd
            className="flex items-center gap-1 text-lg font-semibold tabular-nums"
            data-testid="goal-streak"
          >
            <Flame className="size-4 text-orange-500" aria-hidden />
            {goal.streak_days} {goal.streak_days === 1 ? 'day' : 'days'}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-muted-foreground">
        {goal.today_words_all.toLocaleString()} words today in all your documents. A day counts for the streak
        at {goal.streak_min_words} words.
      </p>
      <WordsChart history={goal.history} />
    </div>
  );
}
