import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { errorMessage } from '@client/lib/api';
import type { DocumentGoal } from '@shared/schemas/goals';
import { useId, useState, type FormEvent } from 'react';
import { useClearGoal, useSetGoal, type GoalSubject } from './api';

/** Set, change or clear a word target and its deadline (a document's or a folder's). */
export function GoalForm({
  subject,
  goal,
  label,
}: {
  subject: GoalSubject;
  goal: DocumentGoal;
  label: string;
}) {
  const targetId = useId();
  const deadlineId = useId();
  const [target, setTarget] = useState(goal.target_words?.toString() ?? '');
  const [deadline, setDeadline] = useState(goal.deadline ?? '');
  const setGoal = useSetGoal(subject);
  const clearGoal = useClearGoal(subject);
  const error = setGoal.error ?? clearGoal.error;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const targetWords = Number.parseInt(target, 10);
    if (!Number.isFinite(targetWords) || targetWords < 1) return;
    setGoal.mutate({ target_words: targetWords, deadline: deadline || null });
  };

  return (
    <form className="space-y-3" aria-label={label} onSubmit={save}>
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
  );
}
