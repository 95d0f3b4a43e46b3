import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import {
  AlignCenter,
  AlignJustify,
  AlignLeft,
  AlignRight,
  Asterisk,
  Bold,
  ChevronDownIcon,
  ImagePlus,
  Italic,
  Underline,
} from 'lucide-react';
import {
  DEFAULT_EDITOR_FONT_FAMILY,
  DEFAULT_EDITOR_FONT_SIZE_PX,
  EDITOR_FONT_FAMILIES,
  EDITOR_FONT_SIZES_PX,
  type TextAlignment,
} from '@shared/constants';
import { KEYMAP, shortcutLabel } from '@shared/keymap';
import { SELECT_TRIGGER_CLASS_NAMES } from '@client/components/ui/select-trigger-style';
import { Separator } from '@client/components/ui/separator';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import { cn } from '@client/lib/utils';
import { TextColorButton } from './TextColorButton';
import { ToolbarButton } from './ToolbarButton';

// The pickers bring the select and popover libraries, which typing does not need: fetched right after the
// toolbar's first paint, with look-alikes of their triggers until then.
const fontControls = () => import('./FontControls');
const fontFamilySelect = onDemand(async () => (await fontControls()).FontFamilySelect);
const fontSizeSelect = onDemand(async () => (await fontControls()).FontSizeSelect);
const textColorPicker = onDemand(async () => (await fontControls()).TextColorPicker);

/** A closed select's trigger showing `value`, as the select library draws it. */
function SelectStandIn({
  label,
  value,
  className,
  disabled,
}: {
  label: string;
  value: string;
  className: string;
  disabled: boolean;
}) {
  return (
    <button
      type="button"
      role="combobox"
      aria-label={label}
      aria-expanded={false}
      aria-autocomplete="none"
      dir="ltr"
      data-state="closed"
      data-disabled={disabled ? '' : undefined}
      disabled={disabled}
      data-slot="select-trigger"
      data-size="sm"
      className={cn(...SELECT_TRIGGER_CLASS_NAMES, className)}
    >
      <span style={{ pointerEvents: 'none' }}>{value}</span>
      <ChevronDownIcon className="size-4 opacity-50" aria-hidden />
    </button>
  );
}

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

/** The formatting toolbar: 8 fonts, 10 sizes, 9 colours, bold/italic/underline, 4 alignments. */
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
        images: e.storage.imageUpload !== undefined,
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
    <div role="toolbar" aria-label="Formatting" className="flex shrink-0 items-center gap-1">
      <OnDemandControl
        control={fontFamilySelect}
        standIn={
          <SelectStandIn
            label="Font family"
            className="w-36 shrink-0"
            value={(EDITOR_FONT_FAMILIES as readonly string[]).includes(fontFamily) ? fontFamily : ''}
            disabled={disabled}
          />
        }
      >
        {(FontFamilySelect, openOnArrival) => (
          <FontFamilySelect
            editor={editor}
            fontFamily={fontFamily}
            disabled={disabled}
            defaultOpen={openOnArrival}
          />
        )}
      </OnDemandControl>
      <OnDemandControl
        control={fontSizeSelect}
        standIn={
          <SelectStandIn
            label="Font size"
            className="w-20 shrink-0"
            value={EDITOR_FONT_SIZES_PX.some((size) => String(size) === fontSize) ? `${fontSize}px` : ''}
            disabled={disabled}
          />
        }
      >
        {(FontSizeSelect, openOnArrival) => (
          <FontSizeSelect
            editor={editor}
            fontSize={fontSize}
            disabled={disabled}
            defaultOpen={openOnArrival}
          />
        )}
      </OnDemandControl>
      <OnDemandControl
        control={textColorPicker}
        standIn={
          <TextColorButton
            color={state.color}
            disabled={disabled}
            aria-haspopup="dialog"
            aria-expanded={false}
          />
        }
      >
        {(TextColorPicker, openOnArrival) => (
          <TextColorPicker
            editor={editor}
            color={state.color}
            disabled={disabled}
            defaultOpen={openOnArrival}
          />
        )}
      </OnDemandControl>
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
      <Separator orientation="vertical" className="mx-1 h-6" />
      <ToolbarButton
        label={`Insert footnote (${shortcutLabel(KEYMAP.footnote.keys)})`}
        disabled={disabled}
        onClick={() => editor.chain().focus().insertFootnote().run()}
      >
        <Asterisk />
      </ToolbarButton>
      {state.images && (
        <>
          <Separator orientation="vertical" className="mx-1 h-6" />
          <ToolbarButton
            label="Insert image"
            disabled={disabled}
            onClick={() => editor.storage.imageUpload?.chooseFile()}
          >
            <ImagePlus />
          </ToolbarButton>
        </>
      )}
    </div>
  );
}
