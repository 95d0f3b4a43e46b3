import {
  getExtensionField,
  isExtensionRulesEnabled,
  pasteRulesPlugin,
  type AnyExtension,
  type Editor,
  type MarkConfig,
} from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import { Link, type LinkOptions } from '@tiptap/extension-link';
import type { Plugin } from '@tiptap/pm/state';

/**
 * Autolink leaves alone what arrives through Yjs (other people's typing, the document arriving as it opens):
 * whoever typed it had it autolinked, or not, in their own editor; linking it again here would change their text
 * behind their back, and scan a whole book as it opens (about 14 ms at 100,000 words, bench:editor).
 */
function skipChangesFromYjs(plugin: Plugin): Plugin {
  const append = plugin.spec.appendTransaction;
  // Of Link's plugins, only autolink appends transactions.
  if (!append) return plugin;
  (plugin.spec as { appendTransaction: typeof append }).appendTransaction = (
    transactions,
    oldState,
    newState,
  ) => (transactions.every(isChangeOrigin) ? null : append(transactions, oldState, newState));
  return plugin;
}

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
  return [
    ...(rules.length > 0 ? pasteRulesPlugin({ editor, rules }) : []),
    ...(addPlugins?.() ?? []).map(skipChangesFromYjs),
  ];
}
