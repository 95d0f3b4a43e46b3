import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeBlocks } from '@shared/analysis/analyze';
import { positionAt } from '@shared/analysis/result';
import { createEditorExtensions } from '@shared/editor/extensions';
import { analysisBlocks } from './analysis-blocks';
import { analysisHighlightsKey, analysisHighlightsPlugin } from './analysis-highlights';
import {
  createAnalysisRunner,
  type AnalysisWorkerLike,
  type AnalysisWorkerResponse,
} from './analysis-runner';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function editorWith(content: string | object) {
  editor = new Editor({ extensions: createEditorExtensions({ history: false }), content });
  return editor;
}

const change = (type: string) => [{ type, attrs: { id: 's1', author_id: 'a', source: 'ai' } }];

describe('the document as the analysis reads it', () => {
  it('takes each text block with positions, leaving out text proposed for deletion and code', () => {
    const { state } = editorWith({
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Title' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'The ' },
            { type: 'text', text: 'cake', marks: change('deletion') },
            { type: 'text', text: 'pie', marks: change('insertion') },
            { type: 'text', text: ' was eaten.' },
          ],
        },
        { type: 'codeBlock', content: [{ type: 'text', text: 'x was set' }] },
      ],
    });
    const blocks = analysisBlocks(state.doc);
    expect(blocks.map((b) => b.text)).toEqual(['Title', 'The pie was eaten.']);
    const paragraph = blocks[1]!;
    // Every character maps to where it is in the document.
    for (let i = 0; i < paragraph.text.length; i++) {
      const pos = positionAt(paragraph, i);
      expect(state.doc.textBetween(pos, pos + 1)).toBe(paragraph.text[i]);
    }
    const [passive] = analyzeBlocks(blocks).passive;
    expect(state.doc.textBetween(passive!.from, passive!.to)).toBe('was eaten');
  });

  it('a line break ends a sentence and keeps the positions after it', () => {
    const { state } = editorWith('<p>First line<br>The letter was written.</p>');
    const [block] = analysisBlocks(state.doc);
    expect(block!.text).toBe('First line\nThe letter was written.');
    const [passive] = analyzeBlocks([block!]).passive;
    expect(state.doc.textBetween(passive!.from, passive!.to)).toBe('was written');
  });
});

describe('highlights', () => {
  it('decorates long sentences and passive constructions, follows edits, and clears when unregistered', () => {
    const long = `${Array.from({ length: 35 }, (_, i) => `word${i}`).join(' ')}.`;
    const e = editorWith(`<p>${long} The tea was made.</p>`);
    const clicked: string[] = [];
    e.registerPlugin(analysisHighlightsPlugin({ onHighlightClick: (key) => clicked.push(key) }));
    const analysis = analyzeBlocks(analysisBlocks(e.state.doc));
    e.view.dispatch(e.state.tr.setMeta(analysisHighlightsKey, { analysis }));

    const found = () =>
      analysisHighlightsKey
        .getState(e.state)!
        .find()
        .map((d) => [
          e.state.doc.textBetween(d.from, d.to),
          (d.spec as { analysisItem: string }).analysisItem,
        ]);
    expect(found()).toEqual([
      [long, 'long:0'],
      ['was made', 'passive:0'],
    ]);
    expect(e.view.dom.querySelector('[data-analysis="long-sentence"]')?.textContent).toBe(long);

    e.commands.insertContentAt(1, 'Now ');
    expect(found()).toEqual([
      [long, 'long:0'],
      ['was made', 'passive:0'],
    ]);

    e.unregisterPlugin(analysisHighlightsKey);
    expect(e.view.dom.querySelector('[data-analysis]')).toBeNull();
  });
});

describe('where the analysis runs', () => {
  const blocks = [{ text: 'The tea was made.', runs: [{ offset: 0, pos: 1 }] }];

  it('answers from the worker', async () => {
    let listener: ((event: MessageEvent<AnalysisWorkerResponse>) => void) | undefined;
    const worker: AnalysisWorkerLike = {
      postMessage: ({ id, blocks: sent }) =>
        queueMicrotask(() =>
          listener?.({ data: { type: 'result', id, analysis: analyzeBlocks(sent) } } as MessageEvent),
        ),
      addEventListener: ((type: string, l: (event: MessageEvent<AnalysisWorkerResponse>) => void) => {
        if (type === 'message') listener = l;
      }) as AnalysisWorkerLike['addEventListener'],
      terminate: () => {},
    };
    const runner = createAnalysisRunner({
      startWorker: () => worker,
      loadHere: () => Promise.reject(new Error('not used')),
    });
    expect((await runner.analyze(blocks)).passive[0]?.text).toBe('was made');
    expect(runner.mode).toBe('worker');
  });

  it('runs in the page when the worker cannot start', async () => {
    const runner = createAnalysisRunner({
      startWorker: () => {
        throw new Error('no module workers');
      },
      loadHere: async () => analyzeBlocks,
    });
    expect((await runner.analyze(blocks)).passive[0]?.text).toBe('was made');
    expect(runner.mode).toBe('page');
  });

  it('a failed analysis rejects (the panel then shows the fallback)', async () => {
    const runner = createAnalysisRunner({
      startWorker: () => {
        throw new Error('no module workers');
      },
      loadHere: async () => () => {
        throw new Error('broken');
      },
    });
    await expect(runner.analyze(blocks)).rejects.toThrow('broken');
  });
});
