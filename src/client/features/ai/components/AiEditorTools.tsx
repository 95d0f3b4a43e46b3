import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import type { AiController } from '../useAiActions';

// Live grammar and the selection helper are not needed to type: fetched as the editor mounts, mounted on arrival
// (the grammar plugin makes its first check once the editor is idle anyway). The writer may be typing by then:
// the grammar plugin goes into the place the editor keeps for it (LiveGrammarSlot), which re-creates no other
// plugin's view (an open '/' palette stays open).
const loadLiveGrammar = () => import('./LiveGrammar');
const loadSelectionHelper = () => import('./SelectionHelper');
const LiveGrammar = lazy(() => loadLiveGrammar().then((m) => ({ default: m.LiveGrammar })));
const SelectionHelper = lazy(() => loadSelectionHelper().then((m) => ({ default: m.SelectionHelper })));

// The overlays a writer opens (or an answer brings) are not part of the editor's first load: each is fetched
// once the editor has settled, and mounted the first time it is needed.
const loadAssistantPanel = () => import('./AssistantPanel');
const loadRewriteDialog = () => import('./RewriteDialog');
const loadAlternativesDialog = () => import('./AlternativesDialog');
const loadSuggestionCard = () => import('./SuggestionCard');
const AssistantPanel = lazy(() => loadAssistantPanel().then((m) => ({ default: m.AssistantPanel })));
const RewriteDialog = lazy(() => loadRewriteDialog().then((m) => ({ default: m.RewriteDialog })));
const AlternativesDialog = lazy(() =>
  loadAlternativesDialog().then((m) => ({ default: m.AlternativesDialog })),
);
const SuggestionCard = lazy(() => loadSuggestionCard().then((m) => ({ default: m.SuggestionCard })));

/** After the editor's first paint and sync, well before a writer can open an overlay or get an answer. */
const OVERLAY_PRELOAD_DELAY_MS = 1_000;

/** Renders `children` from the first time `when` holds on (so a dialog can animate closed). */
function MountedOnceShown({ when, children }: { when: boolean; children: ReactNode }) {
  const [shown, setShown] = useState(when);
  if (when && !shown) setShown(true);
  return shown ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * The AI overlays of the editor page, mounted once: live grammar underlines, suggestion card, AI Writing
 * Assistant panel, rewrite dialog and selection helper. The top AI toolbar is separate (<AiToolbar />) so the page can place it.
 */
export function AiEditorTools({ controller }: { controller: AiController }) {
  useEffect(() => {
    const timer = setTimeout(() => {
      void loadAssistantPanel();
      void loadRewriteDialog();
      void loadAlternativesDialog();
      void loadSuggestionCard();
    }, OVERLAY_PRELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <>
      <Suspense fallback={null}>
        <LiveGrammar controller={controller} />
        <SelectionHelper controller={controller} />
      </Suspense>
      <MountedOnceShown when={controller.suggestion !== null}>
        <SuggestionCard controller={controller} />
      </MountedOnceShown>
      <MountedOnceShown when={controller.assistantOpen}>
        <AssistantPanel controller={controller} />
      </MountedOnceShown>
      <MountedOnceShown when={controller.rewriteOpen}>
        <RewriteDialog controller={controller} />
      </MountedOnceShown>
      <MountedOnceShown when={controller.alternativesAnchor !== null}>
        <AlternativesDialog controller={controller} />
      </MountedOnceShown>
    </>
  );
}
