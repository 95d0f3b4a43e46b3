import { closeHistory } from '@tiptap/pm/history';
import { SpellCheck, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@client/components/ui/button';
import { asOneUndoStep } from '@client/features/editor';
import { StandInPlugin } from '@client/features/editor';
import { grammarMessageParts } from '../grammar-message';
import { liveGrammarPlugin, type GrammarIssue } from '../live-grammar';
import { liveGrammarSlotOf } from '../live-grammar-slot';
import {
  acquireGrammarChecker,
  BROWSER_CHECK_DELAY_MS,
  FIRST_PASS_AFTER_MS,
  SERVER_CHECK_DELAY_MS,
} from '../live-grammar-checker';
import { useLiveGrammarEnabled } from '../live-grammar-preference';
import { useUserSettings } from '@client/features/settings';
import type { AiController } from '../useAiActions';

interface OpenIssue {
  issue: GrammarIssue;
  top: number;
  left: number;
}

/** Registers the live grammar underlines on the editor and shows the click-to-fix card. */
export function LiveGrammar({ controller }: { controller: AiController }) {
  const { editor } = controller;
  const enabled = useLiveGrammarEnabled();
  const settings = useUserSettings();
  const { grammarDialect } = settings.preferences;
  // Checks wait for the writer's English (or for the settings to fail, then American English).
  const settingsKnown = settings.loaded || settings.isError;
  const [open, setOpen] = useState<OpenIssue | null>(null);

  useEffect(() => {
    if (!editor || !enabled || !settingsKnown || editor.isDestroyed) return;
    // The checker starts Harper's worker (and its WASM download) with its first check, which the plugin makes
    // once the editor has been open FIRST_PASS_AFTER_MS and the writer pauses; nothing of it loads before.
    const { checker, release } = acquireGrammarChecker();
    const plugin = liveGrammarPlugin({
      check: (text) => checker.check(text, grammarDialect),
      delayMs: () => (checker.mode === 'browser' ? BROWSER_CHECK_DELAY_MS : SERVER_CHECK_DELAY_MS),
      started: () => checker.started,
      firstPassAfterMs: FIRST_PASS_AFTER_MS,
      onIssueClick: (issue, target) => {
        const rect = target.getBoundingClientRect();
        setOpen({ issue, top: rect.bottom + 6, left: rect.left });
      },
    });
    // Into the place kept for it since the editor was made, so that no other plugin's view is re-created.
    const slot = liveGrammarSlotOf(editor);
    StandInPlugin.adopt(editor.view, [[slot, plugin]]);
    return () => {
      setOpen(null);
      if (!editor.isDestroyed) StandInPlugin.release(editor.view, [slot]);
      release();
    };
    // A new dialect re-registers the plugin, which checks the document again in that English.
  }, [editor, enabled, settingsKnown, grammarDialect]);

  if (!editor || !open) return null;
  const { issue } = open;
  const fix = () => {
    const current = editor.state.doc.textBetween(issue.from, issue.to);
    if (current === issue.original) {
      asOneUndoStep(editor, () =>
        editor
          .chain()
          .command(({ tr }) => {
            closeHistory(tr);
            tr.insertText(issue.replacement, issue.from, issue.to);
            return true;
          })
          .run(),
      );
    }
    setOpen(null);
    editor.commands.focus();
  };

  return (
    <div
      role="dialog"
      aria-label="Grammar suggestion"
      data-testid="grammar-fix-card"
      className="fixed z-40 w-72 rounded-lg border bg-popover p-3 text-sm text-popover-foreground shadow-lg"
      style={{ top: open.top, left: open.left }}
    >
      <div className="mb-2 flex items-start gap-2">
        <SpellCheck className="mt-0.5 size-4 shrink-0 text-red-500" aria-hidden="true" />
        <p className="flex-1 text-xs text-muted-foreground">
          {grammarMessageParts(issue.message).map((part, index) =>
            part.quoted ? (
              <strong key={index} className="font-medium text-foreground">
                {part.text}
              </strong>
            ) : (
              part.text
            ),
          )}
        </p>
        <button
          type="button"
          aria-label="Close"
          className="rounded p-0.5 text-muted-foreground hover:bg-accent"
          onClick={() => setOpen(null)}
        >
          <X className="size-3.5" aria-hidden="true" />
        </button>
      </div>
      <Button type="button" size="sm" onMouseDown={(event) => event.preventDefault()} onClick={fix}>
        {issue.replacement ? `Replace with “${issue.replacement}”` : 'Remove'}
      </Button>
    </div>
  );
}
