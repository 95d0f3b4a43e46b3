import type { AnyExtension } from '@tiptap/core';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { Placeholder } from '@tiptap/extensions';
import type { Awareness } from 'y-protocols/awareness';
import { COLLAB_FRAGMENT } from '@shared/editor/collab-protocol';
import { createEditorExtensions } from '@shared/editor/extensions';
import type { EditorAiActions } from '../ai-actions';
import type { CollabSession, CollabUser } from '../hooks/useCollaboration';
import { CaretBlock } from './caret-block';
import { DocumentCollaboration } from './collaboration';
import { FootnoteBehaviour } from './footnotes';
import { LatePluginViews } from './late-plugin-views';
import { LinkBehaviour } from './link-behaviour';
import { SelectionBeforeKeys } from './selection-before-keys';
import { SlashCommandExtension } from './slash-command';

const HEADING_PLACEHOLDER = "What's the title?";
const BODY_PLACEHOLDER = "Type '/' for commands, or start writing...";

/** Renders a remote user's caret with their name and colour. */
function renderCaret(user: Record<string, unknown>): HTMLElement {
  const color = typeof user.color === 'string' ? user.color : '#2563eb';
  const caret = document.createElement('span');
  caret.classList.add('collaboration-carets__caret');
  caret.style.borderColor = color;
  const label = document.createElement('span');
  label.classList.add('collaboration-carets__label');
  label.style.backgroundColor = color;
  label.textContent = typeof user.name === 'string' ? user.name : 'Anonymous';
  caret.append(label);
  return caret;
}

type AwarenessListener = (
  changes: { added: number[]; updated: number[]; removed: number[] },
  origin: unknown,
) => void;

/**
 * The awareness as the caret plugin sees it: 'change' events caused only by this client's own state are not
 * passed on. y-tiptap's caret plugin answers every 'change' with an extra editor transaction to redraw the
 * carets, and our own cursor moves on every keystroke although our own caret is never drawn; skipping those
 * halves the transactions per keystroke (bench:editor). Everything else goes to the real awareness.
 */
export function remoteCaretAwareness(awareness: Awareness): Awareness {
  const wrapped = new Map<AwarenessListener, AwarenessListener>();
  return new Proxy(awareness, {
    get(target, property, receiver) {
      if (property === 'on' || property === 'off') {
        return (event: string, listener: AwarenessListener) => {
          if (event !== 'change')
            return Reflect.get(target, property, receiver).call(target, event, listener);
          if (property === 'off') {
            target.off('change', wrapped.get(listener) ?? listener);
            wrapped.delete(listener);
            return;
          }
          const filtered: AwarenessListener = (changes, origin) => {
            const all = [...changes.added, ...changes.updated, ...changes.removed];
            if (origin === 'local' && all.every((client) => client === target.clientID)) return;
            listener(changes, origin);
          };
          wrapped.set(listener, filtered);
          target.on('change', filtered);
        };
      }
      // The caret plugin skips the state of the editor document's own client id; with auto-save off that is
      // the draft's, not presence's, so our own state is left out here.
      if (property === 'getStates') {
        return () => {
          const states = new Map(target.getStates());
          states.delete(target.clientID);
          return states;
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * The browser editor: the shared schema extensions (src/shared/editor/extensions.ts) with history left to Yjs,
 * plus client-only behaviour: keys that act on the selection the writer sees, link detection, placeholders, the
 * caret's block kept laid out, Yjs binding, presence carets, the '/' palette and its shortcuts, and the floating
 * menus' views joining without a change of the plugin list. The features around the editor add theirs as
 * plugins (plugins.tsx: live grammar's place, ghost text, suggesting mode, file drops).
 */
export function createClientExtensions(options: {
  session: CollabSession;
  user: CollabUser;
  getAi: () => EditorAiActions;
}): AnyExtension[] {
  const { session, user, getAi } = options;
  return [
    ...createEditorExtensions({ history: false }),
    SelectionBeforeKeys,
    LatePluginViews,
    LinkBehaviour,
    FootnoteBehaviour,
    Placeholder.configure({
      placeholder: ({ node }) => (node.type.name === 'heading' ? HEADING_PLACEHOLDER : BODY_PLACEHOLDER),
    }),
    CaretBlock,
    DocumentCollaboration.configure({ document: session.ydoc, field: COLLAB_FRAGMENT }),
    CollaborationCaret.configure({
      provider: { awareness: remoteCaretAwareness(session.awareness) },
      user: { id: user.id, name: user.name, color: user.color },
      render: renderCaret,
    }),
    SlashCommandExtension.configure({ getAi }),
  ];
}
