import type { ComponentProps } from 'react';
import { cn } from '@client/lib/utils';

const RADIUS = 8;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export interface GoalRingProps extends ComponentProps<'button'> {
  /** Words in the document now (the editor's live count). */
  words: number;
  /** Null without a target: the ring is empty and invites setting one. */
  target: number | null;
  dailyTarget: number | null;
}

/** "1 word", "2,500 words". */
export const wordsLabel = (count: number) => `${count.toLocaleString()} ${count === 1 ? 'word' : 'words'}`;

/** What the ring says, for its label and tooltip (the percentage first: it is the ring's visible text). */
function ringLabel(words: number, target: number | null, dailyTarget: number | null): string {
  if (target === null) return 'Writing goal: none set';
  const percent = Math.round(Math.min(1, Math.max(0, words / target)) * 100);
  const daily = dailyTarget === null ? '' : ` · Daily target: ${wordsLabel(dailyTarget)}`;
  return `${percent}% of writing goal: ${words.toLocaleString()} of ${wordsLabel(target)}${daily}`;
}

/**
 * The quiet progress ring in the editor header: current words against the target, the daily target in its
 * tooltip. Also the Goals popover's trigger, and its stand-in while the popover's code is on the way.
 */
export function GoalRing({ words, target, dailyTarget, className, ...props }: GoalRingProps) {
  const progress = target ? Math.min(1, Math.max(0, words / target)) : 0;
  const label = ringLabel(words, target, dailyTarget);
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      data-testid="goal-ring"
      data-progress={Math.round(progress * 100)}
      className={cn(
        'inline-flex h-8 items-center gap-1.5 rounded-md px-1.5 text-xs text-muted-foreground tabular-nums hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
      {...props}
    >
      <svg viewBox="0 0 20 20" className="size-5 -rotate-90" aria-hidden>
        <circle cx="10" cy="10" r={RADIUS} fill="none" strokeWidth="2.5" className="stroke-muted" />
        {target !== null && (
          <circle
            cx="10"
            cy="10"
            r={RADIUS}
            fill="none"
            strokeWidth="2.5"
            strokeLinecap="round"
            strokeDasharray={CIRCUMFERENCE}
            strokeDashoffset={CIRCUMFERENCE * (1 - progress)}
            className={progress >= 1 ? 'stroke-emerald-500' : 'stroke-primary'}
          />
        )}
      </svg>
      {target !== null && (
        <span className="hidden @min-[60rem]:inline" data-testid="goal-ring-value">
          {Math.round(progress * 100)}%
        </span>
      )}
    </button>
  );
}
