import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import {
  EDITING_MODE_GROUP_CLASS,
  EDITING_MODE_SEGMENT_CLASS,
  EDITING_MODES,
  type EditingMode,
} from './editing-modes';
import { isSuggesting } from './suggesting-mode';

// The radio group's keyboard comes with its library, which typing does not need: fetched right after the
// editor's first paint. Until then the switch is drawn the same, and a click on a segment already switches.
const editingModeChoice = onDemand(async () => (await import('./EditingModeChoice')).EditingModeChoice);

/**
 * Editing / Suggesting, in the editor header. In Suggesting, what the writer types and deletes becomes
 * tracked suggestions (suggesting-mode.ts) that anyone with the document can accept or reject.
 */
export function SuggestingModeSwitch({ editor }: { editor: Editor }) {
  const suggesting = useEditorState({ editor, selector: ({ editor: e }) => isSuggesting(e) });
  const mode: EditingMode = suggesting ? 'suggesting' : 'editing';
  const setMode = (next: EditingMode) => editor.commands.setSuggesting(next === 'suggesting');
  return (
    <OnDemandControl
      control={editingModeChoice}
      standIn={
        <div
          role="radiogroup"
          aria-label="Editing mode"
          aria-required="false"
          dir="ltr"
          className={EDITING_MODE_GROUP_CLASS}
          style={{ outline: 'none' }}
          data-slot="choice-group"
          data-testid="editing-mode"
        >
          {EDITING_MODES.map(({ value, title, label, Icon }) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={value === mode}
              data-state={value === mode ? 'checked' : 'unchecked'}
              value={value}
              tabIndex={value === mode ? 0 : -1}
              data-slot="choice-item"
              className={EDITING_MODE_SEGMENT_CLASS}
              title={title}
              onClick={() => setMode(value)}
            >
              <Icon className="size-3.5" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">{label}</span>
            </button>
          ))}
        </div>
      }
    >
      {(EditingModeChoice) => <EditingModeChoice mode={mode} onModeChange={setMode} />}
    </OnDemandControl>
  );
}
