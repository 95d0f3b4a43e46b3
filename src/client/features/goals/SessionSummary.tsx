import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { Transaction } from '@tiptap/pm/state';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import { useEffect } from 'react';
import { toast } from '@client/components/ui/use-toast';
import { blockWordCount } from '@client/features/editor';
import { sessionSummary } from './session';

function wordsOf(doc: ProseMirrorNode): number {
  let words = 0;
  doc.forEach((block) => {
    words += blockWordCount(block);
  });
  return words;
}

/** Changes that came from collaborators through the shared document, not from this writer. */
const isRemote = (transaction: Transaction) =>
  (transaction.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin === true;

/**
 * Counts this writer's own net words while the editor is open (each local change's difference in words; the
 * block counts are cached, so a keystroke recounts one block) and says how the session went on leaving.
 */
export function SessionSummary({ editor }: { documentId: string; editor: Editor | null }) {
  useEffect(() => {
    if (!editor) return;
    const started = Date.now();
    let words = 0;
    const onTransaction = ({ transaction }: { transaction: Transaction }) => {
      if (!transaction.docChanged || isRemote(transaction)) return;
      words += wordsOf(transaction.doc) - wordsOf(transaction.before);
    };
    editor.on('transaction', onTransaction);
    return () => {
      editor.off('transaction', onTransaction);
      const line = sessionSummary({ words, durationMs: Date.now() - started });
      if (line) toast({ title: 'Writing session', description: line });
    };
  }, [editor]);
  return null;
}
