import type { Node as PmNode } from '@tiptap/pm/model';
import type { AnalysisBlock } from '@shared/analysis/result';
import { isProposedForDeletion } from '@client/features/editor';

/**
 * The document's text blocks as the analysis reads them: the text as it would read with pending suggestions
 * taken (text proposed for deletion left out, as the word count does), code blocks skipped, a line break as
 * "\n". Each block's runs map its characters back to document positions, so findings can be highlighted.
 */

// Blocks are immutable and shared between versions of the document: an unchanged block keeps its text and runs
// (relative to its start), so after a keystroke only the edited block is read again.
const relativeBlocks = new WeakMap<PmNode, AnalysisBlock>();

function relativeBlock(node: PmNode): AnalysisBlock {
  let block = relativeBlocks.get(node);
  if (block) return block;
  let text = '';
  const runs: AnalysisBlock['runs'] = [];
  let next = -1;
  const append = (chunk: string, pos: number) => {
    if (pos !== next) runs.push({ offset: text.length, pos });
    text += chunk;
    next = pos + chunk.length;
  };
  node.forEach((child, offset) => {
    if (child.isText) {
      if (!isProposedForDeletion(child)) append(child.text ?? '', offset);
    } else if (child.type.name === 'hardBreak') {
      append('\n', offset);
    }
  });
  block = { text, runs };
  relativeBlocks.set(node, block);
  return block;
}

export function analysisBlocks(doc: PmNode): AnalysisBlock[] {
  const blocks: AnalysisBlock[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    if (node.type.spec.code) return false;
    const relative = relativeBlock(node);
    if (relative.text.trim()) {
      // Content starts one position after the block's opening.
      blocks.push({
        text: relative.text,
        runs: relative.runs.map((run) => ({ ...run, pos: run.pos + pos + 1 })),
      });
    }
    return false;
  });
  return blocks;
}
