import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { SLASH_PALETTE_MAX_HEIGHT_PX } from '@shared/constants';
import { cn } from '@client/lib/utils';
import {
  groupSlashCommands,
  paletteKeyAction,
  type PaletteKeyResult,
  type SlashCommand,
  type SlashCommandId,
} from '../slash-commands';

export interface SlashPaletteProps {
  items: SlashCommand[];
  query: string;
  isAvailable: (id: SlashCommandId) => boolean;
  onRun: (command: SlashCommand) => void;
  onClose: () => void;
  /** The editable element keeping focus while the palette is open: it points at the highlighted command. */
  editorElement?: HTMLElement;
}

const PALETTE_ID = 'slash-palette';
const optionId = (id: SlashCommandId) => `slash-option-${id}`;

export interface SlashPaletteHandle {
  /** Returns true when the palette consumed the key. */
  onKeyDown: (event: KeyboardEvent) => boolean;
}

/** The '/' command palette: grouped, filterable, keyboard-driven, at most 400 px tall. */
export const SlashPalette = forwardRef<SlashPaletteHandle, SlashPaletteProps>(function SlashPalette(
  { items, query, isAvailable, onRun, onClose, editorElement },
  ref,
) {
  const [selectedIndex, setSelectedIndex] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);

  // The selected index resets to 0 when the filter changes, so Enter runs the best match.
  const [lastQuery, setLastQuery] = useState(query);
  if (lastQuery !== query) {
    setLastQuery(query);
    setSelectedIndex(0);
  }

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selectedIndex}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selectedIndex]);

  // Focus stays in the editor (a textbox), which points at the palette and its highlighted option.
  const activeCommand = items[selectedIndex];
  useEffect(() => {
    if (!editorElement) return;
    editorElement.setAttribute('aria-controls', PALETTE_ID);
    if (activeCommand) editorElement.setAttribute('aria-activedescendant', optionId(activeCommand.id));
    else editorElement.removeAttribute('aria-activedescendant');
  }, [editorElement, activeCommand]);
  useEffect(
    () => () => {
      if (!editorElement) return;
      for (const name of ['aria-controls', 'aria-activedescendant']) {
        editorElement.removeAttribute(name);
      }
    },
    [editorElement],
  );

  const apply = (result: PaletteKeyResult): boolean => {
    switch (result.type) {
      case 'move':
        setSelectedIndex(result.index);
        return true;
      case 'run': {
        const command = items[result.index];
        if (command && isAvailable(command.id)) onRun(command);
        return true;
      }
      case 'close':
        // Backspace on an empty filter is left to the editor: deleting the '/' ends the suggestion.
        if (result.consume) onClose();
        return result.consume;
      case 'ignore':
        return false;
    }
  };

  useImperativeHandle(ref, () => ({
    onKeyDown: (event) =>
      apply(paletteKeyAction(event.key, { query, selectedIndex, itemCount: items.length })),
  }));

  const sections = groupSlashCommands(items);

  return (
    <div
      ref={listRef}
      id={PALETTE_ID}
      role="listbox"
      aria-label="Commands"
      data-testid="slash-palette"
      className="z-50 w-72 overflow-y-auto rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
      style={{ maxHeight: SLASH_PALETTE_MAX_HEIGHT_PX }}
    >
      {sections.length === 0 ? (
        <div className="px-3 py-2 text-sm text-muted-foreground">No commands found</div>
      ) : (
        sections.map((section) => (
          <div key={section.group} role="group" aria-label={section.group}>
            <div className="px-2 pb-1 pt-2 text-xs font-medium uppercase tracking-wide text-muted-foreground">
              {section.group}
            </div>
            {section.items.map(({ command, index }) => {
              const available = isAvailable(command.id);
              return (
                <button
                  key={command.id}
                  id={optionId(command.id)}
                  type="button"
                  role="option"
                  data-index={index}
                  aria-selected={index === selectedIndex}
                  aria-disabled={!available}
                  disabled={!available}
                  title={available ? undefined : 'AI features are not available'}
                  className={cn(
                    'flex w-full items-center gap-3 rounded-md px-2 py-1.5 text-left text-sm',
                    index === selectedIndex && 'bg-accent text-accent-foreground',
                    !available && 'opacity-50',
                  )}
                  onMouseEnter={() => setSelectedIndex(index)}
                  onMouseDown={(event) => {
                    event.preventDefault();
                    if (available) onRun(command);
                  }}
                >
                  <span className="flex-1">
                    <span className="block font-medium">{command.title}</span>
                    <span className="block text-xs text-muted-foreground">{command.description}</span>
                  </span>
                  {command.shortcut && (
                    <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-[10px] text-muted-foreground">
                      {command.shortcut}
                    </kbd>
                  )}
                </button>
              );
            })}
          </div>
        ))
      )}
    </div>
  );
});
