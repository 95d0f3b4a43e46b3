import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Mapping } from '@tiptap/pm/transform';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { DocumentAnalysis } from '@shared/analysis/result';
import { changedRange } from '@client/features/editor';

/**
 * While the Analyze panel is open, its long sentences and passive constructions are highlighted in the text
 * (decorations: nothing is written into the document). Each highlight names its panel item (`long:0`,
 * `passive:2`); clicking one tells the panel, which brings that item forward. A new analysis replaces all
 * highlights; between analyses they follow the edits.
 */

type AnalysisItemKind = 'long' | 'passive';
export type AnalysisItemKey = `${AnalysisItemKind}:${number}`;

export const analysisHighlightsKey = new PluginKey<DecorationSet>('analysisHighlights');

type Meta = { analysis: DocumentAnalysis };

export interface AnalysisHighlightOptions {
  onHighlightClick(key: AnalysisItemKey): void;
}

function inDoc(doc: PmNode, from: number, to: number) {
  return from >= 0 && to <= doc.content.size && from < to;
}

function analysisDecorations(doc: PmNode, analysis: DocumentAnalysis): DecorationSet {
  const decorations: Decoration[] = [];
  analysis.longSentences.forEach((sentence, index) => {
    if (!inDoc(doc, sentence.from, sentence.to)) return;
    decorations.push(
      Decoration.inline(
        sentence.from,
        sentence.to,
        {
          class: 'qw-analysis-long',
          'data-analysis': 'long-sentence',
          title: `Long sentence: ${sentence.words} words`,
        },
        { analysisItem: `long:${index}` satisfies AnalysisItemKey },
      ),
    );
  });
  analysis.passive.forEach((passive, index) => {
    if (!inDoc(doc, passive.from, passive.to)) return;
    decorations.push(
      Decoration.inline(
        passive.from,
        passive.to,
        { class: 'qw-analysis-passive', 'data-analysis': 'passive-voice', title: 'Passive voice' },
        { analysisItem: `passive:${index}` satisfies AnalysisItemKey },
      ),
    );
  });
  return DecorationSet.create(doc, decorations);
}

export function analysisHighlightsPlugin(options: AnalysisHighlightOptions): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: analysisHighlightsKey,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set, old, state) {
        const meta = tr.getMeta(analysisHighlightsKey) as Meta | undefined;
        if (meta) return analysisDecorations(state.doc, meta.analysis);
        if (!tr.docChanged) return set;
        // Mapped by the documents' difference, not the transaction's steps: a collaborator's change arrives as
        // a replacement of the whole document (see live-grammar.ts), which would drop every highlight.
        const changed = changedRange(old.doc, state.doc);
        return changed ? set.map(new Mapping([changed.map]), state.doc) : set;
      },
    },
    props: {
      decorations: (state) => analysisHighlightsKey.getState(state),
      handleClick(view, pos) {
        const found = analysisHighlightsKey
          .getState(view.state)
          ?.find(pos, pos, (spec) => typeof (spec as { analysisItem?: string }).analysisItem === 'string');
        if (!found?.length) return false;
        // The innermost highlight: a passive construction inside a long sentence names the construction.
        const item = found.reduce((a, b) => (b.to - b.from < a.to - a.from ? b : a));
        options.onHighlightClick((item.spec as { analysisItem: AnalysisItemKey }).analysisItem);
        return false;
      },
    },
  });
}
