import type { Editor } from '@tiptap/core';
import { useEffect } from 'react';
import { GHOST_COMPLETION_DELAY_MS } from '@shared/constants';
import { useUserSettings } from '@client/features/settings';
import { useAiEnabled } from '@client/features/editor';
import { streamAi } from './api';
import { GhostText } from './ghost-text';

/**
 * Ghost-text completion for the live editor. The request carries no document id: a ghost is not kept as a
 * suggestion unless the writer keeps its text, and then it is their own typing.
 */
export const GhostCompletion = GhostText.configure({
  complete: async (text, signal, onText) => {
    await streamAi('complete', { text }, { signal, onDelta: (_delta, soFar) => onText(soFar) });
  },
});

/** A browser's own off switch beside the account preference (set to 'off'), e.g. for automated typing. */
const GHOST_COMPLETION_STORAGE_KEY = 'quillwright.ai.ghostCompletion';

function offInThisBrowser(): boolean {
  try {
    return window.localStorage.getItem(GHOST_COMPLETION_STORAGE_KEY) === 'off';
  } catch {
    return false;
  }
}

/** Keeps the editor's ghost completion in line with the writer's preference and whether AI answers. */
export function useGhostCompletionPreference(editor: Editor | null): void {
  const { preferences } = useUserSettings();
  const aiEnabled = useAiEnabled(true);
  const choice = offInThisBrowser() ? 'off' : preferences.ghostCompletion;
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.commands.setGhostCompletionDelay(
      aiEnabled && choice !== 'off' ? GHOST_COMPLETION_DELAY_MS[choice] : null,
    );
  }, [editor, aiEnabled, choice]);
}
