import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { errorMessage } from '@client/lib/api';
import type { DocumentGoal } from '@shared/schemas/goals';
import { Flame } from 'lucide-react';
import { useState } from 'react';
import { useGoal } from './api';
import { FolderGoal } from './FolderGoal';
import { GoalForm } from './GoalForm';
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
  const goal = useGoal(
    { kind: 'documents', id: documentId },
    { refetchInterval: open ? OPEN_REFRESH_MS : false },
  );
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
  const left = goal.target_words === null ? null : Math.max(0, goal.target_words - words);
  return (
    <div className="space-y-4">
      <GoalForm subject={{ kind: 'documents', id: documentId }} goal={goal} label="Document goal" />

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
      <FolderGoal documentId={documentId} />
    </div>
  );
}
