import { describe, expect, it } from 'vitest';
import { applyChatEdits, locateEdit } from './apply-edits';
import { testEditors, trackedBlocks } from '@client/features/editor/editor-ops.testing';

const makeEditor = testEditors();

describe('chat edits in the document', () => {
  it('finds a passage exactly, then ignoring whitespace, quotes and a copied Markdown prefix', () => {
    const e = makeEditor('<h2>Why “gardens” matter</h2><p>Plant  early,\nwater often.</p>');
    expect(locateEdit(e.state.doc, 'water often')).not.toBeNull();
    const loose = locateEdit(e.state.doc, 'Plant   early,\n water often.');
    expect(loose && e.state.doc.textBetween(loose.from, loose.to)).toBe('Plant early, water often.');
    const heading = locateEdit(e.state.doc, '## Why "gardens" matter');
    expect(heading && e.state.doc.textBetween(heading.from, heading.to)).toBe('Why “gardens” matter');
    expect(locateEdit(e.state.doc, 'not in the text')).toBeNull();
  });

  it('proposes the located edits as one suggestion group on their own paragraphs and reports the rest', () => {
    const e = makeEditor(
      '<p>The first paragraph stays.</p><p>The second one is much too long and wordy.</p>',
    );
    const outcome = applyChatEdits(
      e,
      [
        { find: 'is much too long and wordy', replace: 'is short' },
        { find: 'nowhere to be found', replace: 'x' },
      ],
      'suggest',
    );
    expect(outcome.applied).toBe(1);
    expect(outcome.missing).toEqual([{ find: 'nowhere to be found', replace: 'x' }]);
    const [first, second] = trackedBlocks(e);
    expect(first).toBe('The first paragraph stays.');
    expect(second).toContain('[-much too long and wordy-]');
    expect(second).toContain('{+short+}');
    const ids = new Set<string>();
    e.state.doc.descendants((node) => {
      for (const mark of node.marks) if (mark.attrs.id) ids.add(String(mark.attrs.id));
    });
    expect(ids.size).toBe(1);
  });

  it('two edits of one answer share a group; an empty replacement proposes a deletion', () => {
    const e = makeEditor('<p>Alpha beta gamma.</p><p>Delta epsilon.</p>');
    const outcome = applyChatEdits(
      e,
      [
        { find: 'beta ', replace: '' },
        { find: 'epsilon', replace: 'zeta' },
      ],
      'suggest',
    );
    expect(outcome).toMatchObject({ applied: 2, missing: [] });
    expect(trackedBlocks(e)).toEqual(['Alpha [-beta -]gamma.', 'Delta [-epsilon-]{+zeta+}.']);
    const ids = new Set<string>();
    e.state.doc.descendants((node) => {
      for (const mark of node.marks) if (mark.attrs.id) ids.add(String(mark.attrs.id));
    });
    expect(ids.size).toBe(1);
  });

  it('writes the edits at once when the writer prefers AI changes applied', () => {
    const e = makeEditor('<p>Keep this. Change that.</p>');
    expect(applyChatEdits(e, [{ find: 'Change that.', replace: 'Changed.' }], 'apply').applied).toBe(1);
    expect(trackedBlocks(e)).toEqual(['Keep this. Changed.']);
  });
});
