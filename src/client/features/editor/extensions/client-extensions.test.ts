import { describe, expect, it, vi } from 'vitest';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { remoteCaretAwareness } from './client-extensions';

describe('caret awareness', () => {
  it("passes on other people's changes but not this client's own cursor moves", () => {
    const mine = new Awareness(new Y.Doc());
    const theirs = new Awareness(new Y.Doc());
    const view = remoteCaretAwareness(mine);
    const listener = vi.fn();
    view.on('change', listener);

    mine.setLocalStateField('cursor', { anchor: 1, head: 1 });
    expect(listener).not.toHaveBeenCalled();

    theirs.setLocalStateField('user', { name: 'Ada' });
    applyAwarenessUpdate(mine, encodeAwarenessUpdate(theirs, [theirs.clientID]), 'provider');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(view.getStates().get(theirs.clientID)).toEqual({ user: { name: 'Ada' } });

    view.off('change', listener);
    theirs.setLocalStateField('user', { name: 'Ada L.' });
    applyAwarenessUpdate(mine, encodeAwarenessUpdate(theirs, [theirs.clientID]), 'provider');
    expect(listener).toHaveBeenCalledTimes(1);
    mine.destroy();
    theirs.destroy();
  });
});
