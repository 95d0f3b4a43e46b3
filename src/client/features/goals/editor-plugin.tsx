import type { EditorHeaderActionProps, EditorPlugin } from '@client/features/editor';
import { useEditorStats } from '@client/features/editor';
import { ApiError } from '@client/lib/api';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import { useGoal } from './api';
import { GoalRing } from './GoalRing';
import { SessionSummary } from './SessionSummary';

// The popover carries its library and the chart: fetched right after the editor's first paint.
const goalsMenu = onDemand(async () => (await import('./GoalsMenu')).GoalsMenu);

function HeaderGoalRing({ documentId, editor }: EditorHeaderActionProps) {
  const words = useEditorStats(editor)?.wordCount ?? 0;
  const query = useGoal({ kind: 'documents', id: documentId });
  const goal = query.data;
  // Goals are for those who may write the document: a reader is answered 404 and sees no ring.
  if (query.error instanceof ApiError && query.error.status === 404) return null;
  return (
    <OnDemandControl
      control={goalsMenu}
      standIn={
        <GoalRing
          words={words}
          target={goal?.target_words ?? null}
          dailyTarget={goal?.daily_target ?? null}
          aria-haspopup="dialog"
          aria-expanded={false}
        />
      }
    >
      {(GoalsMenu, openOnArrival) => (
        <GoalsMenu documentId={documentId} words={words} defaultOpen={openOnArrival} />
      )}
    </OnDemandControl>
  );
}

/** The editor header's progress ring and Goals popover, and the writing-session summary on leaving. */
export const goalsEditorPlugin: EditorPlugin = {
  name: 'goals',
  HeaderAction: HeaderGoalRing,
  Overlay: SessionSummary,
};
