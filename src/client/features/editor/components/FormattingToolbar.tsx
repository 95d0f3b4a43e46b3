import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import {
  AlignCenter,
  AlignJustify,
  AlignLeft,
  AlignRight,
  Bold,
  Italic,
  Palette,
  Underline,
} from 'lucide-react';
import {
  DEFAULT_EDITOR_FONT_FAMILY,
  DEFAULT_EDITOR_FONT_SIZE_PX,
  EDITOR_FONT_FAMILIES,
  EDITOR_FONT_SIZES_PX,
  EDITOR_TEXT_COLORS,
  type TextAlignment,
} from '@shared/constants';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Separator } from '@client/components/ui/separator';
import { fontStack } from '../preferences';
import { ToolbarButton } from './ToolbarButton';

const ALIGN_ICONS: { value: TextAlignment; label: string; Icon: typeof AlignLeft }[] = [
  { value: 'left', label: 'Align left', Icon: AlignLeft },
  { value: 'center', label: 'Align center', Icon: AlignCenter },
  { value: 'right', label: 'Align right', Icon: AlignRight },
  { value: 'justify', label: 'Justify', Icon: AlignJustify },
];

export interface FormattingToolbarProps {
  editor: Editor;
  /** The font shown when the selection has no explicit font (the user's preference). */
  defaultFontFamily?: string;
  defaultFontSizePx?: number;
}

/** SPEC §2 formatting toolbar: 8 fonts, 10 sizes, 9 colours, bold/italic/underline, 4 alignments. */
export function FormattingToolbar({
  editor,
  defaultFontFamily = DEFAULT_EDITOR_FONT_FAMILY,
  defaultFontSizePx = DEFAULT_EDITOR_FONT_SIZE_PX,
}: FormattingToolbarProps) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const style = e.getAttributes('textStyle') as {
        fontFamily?: string;
        fontSize?: string;
        color?: string;
      };
      return {
        editable: e.isEditable,
        bold: e.isActive('bold'),
        italic: e.isActive('italic'),
        underline: e.isActive('underline'),
        fontFamily: style.fontFamily ?? '',
        fontSize: style.fontSize ?? '',
        color: style.color ?? '',
        align: (ALIGN_ICONS.find(({ value }) => e.isActive({ textAlign: value }))?.value ??
          'left') as TextAlignment,
      };
    },
  });

  const fontFamily =
    EDITOR_FONT_FAMILIES.find((f) => f === state.fontFamily.replace(/["']/gu, '')) ?? defaultFontFamily;
  const fontSize = state.fontSize.replace('px', '') || String(defaultFontSizePx);
  const disabled = !state.editable;

  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex items-center gap-1 overflow-x-auto px-3 py-1.5 sm:px-4 [scrollbar-width:thin]"
    >
      <Select
        value={fontFamily}
        disabled={disabled}
        onValueChange={(value) => editor.chain().focus().setFontFamily(value).run()}
      >
        <SelectTrigger size="sm" className="w-36 shrink-0" aria-label="Font family">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {EDITOR_FONT_FAMILIES.map((family) => (
            <SelectItem key={family} value={family} style={{ fontFamily: fontStack(family) }}>
              {family}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={fontSize}
        disabled={disabled}
        onValueChange={(value) => editor.chain().focus().setFontSize(`${value}px`).run()}
      >
        <SelectTrigger size="sm" className="w-20 shrink-0" aria-label="Font size">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {EDITOR_FONT_SIZES_PX.map((size) => (
            <SelectItem key={size} value={String(size)}>
              {size}px
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Popover>
        <PopoverTrigger asChild>
          <ToolbarButton label="Text colour" disabled={disabled}>
            <Palette />
            <span
              className="size-3 rounded-full border"
              style={{ background: state.color || 'currentColor' }}
            />
          </ToolbarButton>
        </PopoverTrigger>
        <PopoverContent className="w-auto p-2" align="start">
          <div className="grid grid-cols-5 gap-1.5" role="group" aria-label="Text colours">
            {EDITOR_TEXT_COLORS.map((color) => (
              <button
                key={color.value}
                type="button"
                title={color.name}
                aria-label={color.name}
                aria-pressed={state.color.toLowerCase() === color.value}
                className="size-7 rounded-md border ring-offset-2 ring-offset-background aria-pressed:ring-2 aria-pressed:ring-ring"
                style={{ background: color.value }}
                onClick={() =>
                  color.value === '#000000'
                    ? editor.chain().focus().unsetColor().run()
                    : editor.chain().focus().setColor(color.value).run()
                }
              />
            ))}
          </div>
        </PopoverContent>
      </Popover>
      <Separator orientation="vertical" className="mx-1 h-6" />
      <ToolbarButton
        label="Bold"
        active={state.bold}
        disabled={disabled}
        onClick={() => editor.chain().focus().toggleBold().run()}
      >
        <Bold />
      </ToolbarButton>
      <ToolbarButton
        label="Italic"
        active={state.italic}
        disabled={disabled}
        onClick={() => editor.chain().focus().toggleItalic().run()}
      >
        <Italic />
      </ToolbarButton>
      <ToolbarButton
        label="Underline"
        active={state.underline}
        disabled={disabled}
        onClick={() => editor.chain().focus().toggleUnderline().run()}
      >
        <Underline />
      </ToolbarButton>
      <Separator orientation="vertical" className="mx-1 h-6" />
      {ALIGN_ICONS.map(({ value, label, Icon }) => (
        <ToolbarButton
          key={value}
          label={label}
          active={state.align === value}
          disabled={disabled}
          onClick={() => editor.chain().focus().setTextAlign(value).run()}
        >
          <Icon />
        </ToolbarButton>
      ))}
    </div>
  );
}
