import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import {
  Bold,
  Heading2,
  Highlighter,
  Italic,
  Link2,
  Quote,
  Sparkles,
  Subscript,
  Superscript,
  Underline,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from '@client/components/ui/use-toast';
import { normalizeLinkInput } from '../link';
import { ToolbarButton } from './ToolbarButton';

export interface SelectionToolbarProps {
  editor: Editor;
  /** AI Improve (features/ai); disabled when absent. */
  onImprove?: () => void;
  /** The plugins' buttons, at the end (e.g. Comment). */
  actions?: ReactNode;
}

/**
 * Asks for a URL and links the selection; whitelisted schemes only (docs/product-rules.md#validation). An
 * empty answer removes the link.
 */
export function promptForLink(
  editor: Editor,
  ask: (message: string, value: string) => string | null = window.prompt.bind(window),
) {
  const previous = (editor.getAttributes('link') as { href?: string }).href ?? '';
  const answer = ask('Enter URL', previous);
  if (answer === null) return;
  if (answer.trim() === '') {
    editor.chain().focus().extendMarkRange('link').unsetLink().run();
    return;
  }
  const href = normalizeLinkInput(answer);
  if (!href) {
    toast({
      title: 'Invalid link',
      description:
        'Links must be relative or use http, https, ftp, ftps, mailto, tel, callto, sms, cid or xmpp.',
      variant: 'destructive',
    });
    return;
  }
  editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
}

/** The floating selection toolbar: shown while the selection is non-empty. */
export function SelectionToolbar({ editor, onImprove, actions }: SelectionToolbarProps) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      highlight: e.isActive('highlight'),
      subscript: e.isActive('subscript'),
      superscript: e.isActive('superscript'),
      link: e.isActive('link'),
      heading2: e.isActive('heading', { level: 2 }),
      quote: e.isActive('blockquote'),
    }),
  });
  return (
    <BubbleMenu
      editor={editor}
      className="z-40 flex items-center gap-0.5 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
      data-testid="selection-toolbar"
    >
      <ToolbarButton
        label="Bold"
        active={state.bold}
        onClick={() => editor.chain().focus().toggleBold().run()}
      >
        <Bold />
      </ToolbarButton>
      <ToolbarButton
        label="Italic"
        active={state.italic}
        onClick={() => editor.chain().focus().toggleItalic().run()}
      >
        <Italic />
      </ToolbarButton>
      <ToolbarButton
        label="Underline"
        active={state.underline}
        onClick={() => editor.chain().focus().toggleUnderline().run()}
      >
        <Underline />
      </ToolbarButton>
      <ToolbarButton
        label="Highlight"
        active={state.highlight}
        onClick={() => editor.chain().focus().toggleHighlight().run()}
      >
        <Highlighter />
      </ToolbarButton>
      <ToolbarButton
        label="Subscript"
        active={state.subscript}
        onClick={() => editor.chain().focus().unsetSuperscript().toggleSubscript().run()}
      >
        <Subscript />
      </ToolbarButton>
      <ToolbarButton
        label="Superscript"
        active={state.superscript}
        onClick={() => editor.chain().focus().unsetSubscript().toggleSuperscript().run()}
      >
        <Superscript />
      </ToolbarButton>
      <ToolbarButton
        label="AI Improve"
        disabled={!onImprove}
        title={onImprove ? 'AI Improve' : 'AI features are not available'}
        onClick={onImprove}
        className="px-2 text-violet-600 dark:text-violet-400"
      >
        <Sparkles />
        <span className="text-xs font-medium">Improve</span>
      </ToolbarButton>
      <ToolbarButton
        label="Add Link"
        // An action (it asks for a URL), not a toggle: the look shows a linked selection, no aria-pressed.
        className={state.link ? 'bg-accent text-accent-foreground' : undefined}
        onClick={() => promptForLink(editor)}
      >
        <Link2 />
      </ToolbarButton>
      <ToolbarButton
        label="Heading 2"
        active={state.heading2}
        onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}
      >
        <Heading2 />
      </ToolbarButton>
      <ToolbarButton
        label="Quote"
        active={state.quote}
        onClick={() => editor.chain().focus().toggleBlockquote().run()}
      >
        <Quote />
      </ToolbarButton>
      {actions}
    </BubbleMenu>
  );
}
