import type { Editor } from '@tiptap/core';
import { useRef } from 'react';
import { EDITOR_FONT_FAMILIES, EDITOR_FONT_SIZES_PX, EDITOR_TEXT_COLORS } from '@shared/constants';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { fontStack } from '../preferences';
import { TextColorButton } from './TextColorButton';

// The formatting toolbar's font, size and colour pickers, with the select and popover libraries they need
// (loaded after the editor's first paint: see FormattingToolbar).

/**
 * After a pick, the writer goes on typing in the text, so focus stays in the editor. Radix gives focus back to
 * the select's trigger a tick after it closes, which would take a letter typed straight away into the select's
 * typeahead (and change the font). Closed without a pick (Escape), focus returns to the trigger as usual.
 */
function useEditorKeepsFocusAfterPick(editor: Editor) {
  const picked = useRef(false);
  return {
    notePick: () => {
      picked.current = true;
    },
    onCloseAutoFocus: (event: Event) => {
      if (!picked.current) return;
      picked.current = false;
      event.preventDefault();
      if (!editor.isFocused) editor.commands.focus();
    },
  };
}

export interface FontFamilySelectProps {
  editor: Editor;
  fontFamily: string;
  disabled: boolean;
  defaultOpen: boolean;
}

export function FontFamilySelect({ editor, fontFamily, disabled, defaultOpen }: FontFamilySelectProps) {
  const focus = useEditorKeepsFocusAfterPick(editor);
  return (
    <Select
      value={fontFamily}
      disabled={disabled}
      defaultOpen={defaultOpen && !disabled}
      onValueChange={(value) => {
        focus.notePick();
        editor.chain().focus().setFontFamily(value).run();
      }}
    >
      <SelectTrigger size="sm" className="w-36 shrink-0" aria-label="Font family">
        <SelectValue />
      </SelectTrigger>
      <SelectContent onCloseAutoFocus={focus.onCloseAutoFocus}>
        {EDITOR_FONT_FAMILIES.map((family) => (
          <SelectItem key={family} value={family} style={{ fontFamily: fontStack(family) }}>
            {family}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export interface FontSizeSelectProps {
  editor: Editor;
  /** In pixels, without the unit. */
  fontSize: string;
  disabled: boolean;
  defaultOpen: boolean;
}

export function FontSizeSelect({ editor, fontSize, disabled, defaultOpen }: FontSizeSelectProps) {
  const focus = useEditorKeepsFocusAfterPick(editor);
  return (
    <Select
      value={fontSize}
      disabled={disabled}
      defaultOpen={defaultOpen && !disabled}
      onValueChange={(value) => {
        focus.notePick();
        editor.chain().focus().setFontSize(`${value}px`).run();
      }}
    >
      <SelectTrigger size="sm" className="w-20 shrink-0" aria-label="Font size">
        <SelectValue />
      </SelectTrigger>
      <SelectContent onCloseAutoFocus={focus.onCloseAutoFocus}>
        {EDITOR_FONT_SIZES_PX.map((size) => (
          <SelectItem key={size} value={String(size)}>
            {size}px
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export interface TextColorPickerProps {
  editor: Editor;
  /** The selection's colour, '' when it has none. */
  color: string;
  disabled: boolean;
  defaultOpen: boolean;
}

export function TextColorPicker({ editor, color, disabled, defaultOpen }: TextColorPickerProps) {
  return (
    <Popover defaultOpen={defaultOpen && !disabled}>
      <PopoverTrigger asChild>
        <TextColorButton color={color} disabled={disabled} />
      </PopoverTrigger>
      <PopoverContent className="w-auto p-2" align="start">
        <div className="grid grid-cols-5 gap-1.5" role="group" aria-label="Text colours">
          {EDITOR_TEXT_COLORS.map((choice) => (
            <button
              key={choice.value}
              type="button"
              title={choice.name}
              aria-label={choice.name}
              aria-pressed={color.toLowerCase() === choice.value}
              className="size-7 rounded-md border ring-offset-2 ring-offset-background aria-pressed:ring-2 aria-pressed:ring-ring"
              style={{ background: choice.value }}
              onClick={() =>
                choice.value === '#000000'
                  ? editor.chain().focus().unsetColor().run()
                  : editor.chain().focus().setColor(choice.value).run()
              }
            />
          ))}
        </div>
      </PopoverContent>
    </Popover>
  );
}
