import { useDocumentPlacement } from '@client/features/folders';
import { FolderOpen } from 'lucide-react';
import { useId, useState } from 'react';
import { useGoal } from './api';
import { GoalForm } from './GoalForm';
import { wordsLabel } from './GoalRing';

/**
 * The goal of a folder the document sits in (a book of chapters): its own folder, or one above it. Its words are
 * summed over the documents in the folder and its sub-folders. Only for documents in the writer's own folders.
 */
export function FolderGoal({ documentId }: { documentId: string }) {
  const path = useDocumentPlacement(documentId).data?.path ?? [];
  const own = path.at(-1);
  const [chosen, setChosen] = useState<string | null>(null);
  const folder = path.find((entry) => entry.id === chosen) ?? own;
  const subject = folder ? { kind: 'folders' as const, id: folder.id } : null;
  const goal = useGoal(subject).data;
  const titleId = useId();
  if (!folder || !subject) return null;
  return (
    <section className="space-y-3 border-t pt-3" aria-labelledby={titleId} data-testid="folder-goal">
      <h3 id={titleId} className="flex items-center gap-1.5 text-sm font-semibold">
        <FolderOpen className="size-4 text-muted-foreground" aria-hidden />
        Folder goal
      </h3>
      {path.length > 1 ? (
        <select
          aria-label="Folder"
          className="h-8 w-full rounded-md border bg-background px-2 text-sm"
          value={folder.id}
          onChange={(event) => setChosen(event.target.value)}
        >
          {path.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </select>
      ) : (
        <p className="truncate text-sm text-muted-foreground">{folder.name}</p>
      )}
      {goal && (
        <>
          <p className="text-sm" data-testid="folder-goal-progress">
            {goal.target_words === null
              ? `${wordsLabel(goal.words)} in this folder`
              : `${goal.words.toLocaleString()} of ${wordsLabel(goal.target_words)}`}
            {goal.daily_target !== null && (
              <span className="block text-muted-foreground">
                Daily target: {wordsLabel(goal.daily_target)}
              </span>
            )}
          </p>
          <GoalForm
            key={`${folder.id}-${goal.target_words}-${goal.deadline}`}
            subject={subject}
            goal={goal}
            label="Folder goal"
          />
        </>
      )}
    </section>
  );
}
