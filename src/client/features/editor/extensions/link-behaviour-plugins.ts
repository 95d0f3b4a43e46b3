import {
  getExtensionField,
  isExtensionRulesEnabled,
  pasteRulesPlugin,
  type AnyExtension,
  type Editor,
  type MarkConfig,
} from '@tiptap/core';
import { Link, type LinkOptions } from '@tiptap/extension-link';
import type { Plugin } from '@tiptap/pm/state';

/**
 * TipTap's own link behaviours (autolink while typing, a pasted URL on plain text, link on paste over a
 * selection, click handling) for an editor whose link mark is shared/editor/link-mark.ts, with that mark's
 * options: the paste rule's plugin, then Link's plugins, in the order the Link extension would add them.
 * No custom protocols are configured, so Link's onCreate/onDestroy (linkify protocol registration) have nothing
 * to do.
 */
export function linkBehaviourPlugins(editor: Editor): Plugin[] {
  const mark = editor.extensionManager.extensions.find((extension) => extension.name === 'link');
  if (!mark) return [];
  const link = Link.configure(mark.options as LinkOptions) as AnyExtension;
  const context = {
    name: link.name,
    options: link.options as LinkOptions,
    storage: editor.extensionStorage[link.name as keyof typeof editor.extensionStorage],
    editor,
    type: editor.schema.marks.link!,
    parent: undefined,
  };
  const addPasteRules = getExtensionField<MarkConfig['addPasteRules']>(link, 'addPasteRules', context);
  const addPlugins = getExtensionField<MarkConfig['addProseMirrorPlugins']>(
    link,
    'addProseMirrorPlugins',
    context,
  );
  const rules = isExtensionRulesEnabled(link, editor.options.enablePasteRules)
    ? (addPasteRules?.() ?? [])
    : [];
  return [...(rules.length > 0 ? pasteRulesPlugin({ editor, rules }) : []), ...(addPlugins?.() ?? [])];
}
