import { describe, expect, it } from 'vitest';
import { creditedWriter, EditorsSinceStore, SHARE_LINK_EDITOR } from './attribution';

describe('who is credited with a store’s words', () => {
  it('is the one signed-in editor since the last store', () => {
    const editors = new EditorsSinceStore();
    editors.record('doc', 'alice');
    editors.record('doc', 'alice');
    expect(creditedWriter(editors.take('doc'))).toBe('alice');
    // Taken: the next store starts with nobody.
    expect(creditedWriter(editors.take('doc'))).toBeNull();
  });
  it('is nobody when several people or a share-link visitor edited', () => {
    const editors = new EditorsSinceStore();
    editors.record('doc', 'alice');
    editors.record('doc', 'bob');
    expect(creditedWriter(editors.take('doc'))).toBeNull();
    editors.record('doc', SHARE_LINK_EDITOR);
    expect(creditedWriter(editors.take('doc'))).toBeNull();
  });
  it('keeps documents apart', () => {
    const editors = new EditorsSinceStore();
    editors.record('one', 'alice');
    editors.record('two', 'bob');
    expect(creditedWriter(editors.take('two'))).toBe('bob');
    expect(creditedWriter(editors.take('one'))).toBe('alice');
  });
});
