import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { NodeSelection, Plugin, PluginKey, TextSelection, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView, type NodeView } from '@tiptap/pm/view';
import { ySyncPluginKey } from '@tiptap/y-tiptap';
import {
  FOOTNOTE,
  FOOTNOTE_REFERENCE,
  footnoteAnchor,
  footnoteNumbers,
  footnoteReferenceAnchor,
  footnoteReferenceEnd,
  footnoteSyncPlugin,
  footnoteTextPosition,
  touchesFootnotes,
} from '@shared/editor/footnotes';

/**
 * Footnotes in the browser editor (the nodes and their pairing rule are shared: src/shared/editor/footnotes.ts):
 * - references and notes are paired again after each local change (a deleted reference takes its note away in
 *   the same undo step; collaborators' changes arrive paired);
 * - each reference shows its number, drawn from its place among the references (a node decoration carries it);
 * - clicking a number (or Enter on a selected one) puts the caret in its note; the note's ↩ returns the caret
 *   to just after its reference.
 * The shortcut, the toolbar button and /footnote (the palette binds the shortcut) call the shared
 * `insertFootnote` command.
 */

const isRemote = (tr: Transaction) =>
  (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin === true;

const numbersKey = new PluginKey<DecorationSet>('footnoteNumbers');
const NUMBER_ATTRIBUTE = 'data-footnote-number';

function numberDecorations(doc: ProseMirrorNode): DecorationSet {
  const numbers = footnoteNumbers(doc);
  if (numbers.size === 0) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    const name = node.type.name;
    if (name !== FOOTNOTE_REFERENCE && name !== FOOTNOTE) return true;
    const number = numbers.get(String(node.attrs.id));
    if (number !== undefined) {
      decorations.push(Decoration.node(pos, pos + node.nodeSize, { [NUMBER_ATTRIBUTE]: String(number) }));
    }
    return name !== FOOTNOTE_REFERENCE;
  });
  return DecorationSet.create(doc, decorations);
}

function numberOf(decorations: readonly Decoration[]): string {
  for (const decoration of decorations) {
    const attrs = (decoration as unknown as { type: { attrs?: Record<string, string> } }).type.attrs;
    if (attrs?.[NUMBER_ATTRIBUTE]) return attrs[NUMBER_ATTRIBUTE];
  }
  return '';
}

/** Puts the caret at `pos`, scrolls it into view and gives the editor the focus. */
function moveCaret(view: EditorView, pos: number | undefined): boolean {
  if (pos === undefined) return false;
  const selection = TextSelection.create(view.state.doc, Math.min(pos, view.state.doc.content.size));
  view.dispatch(view.state.tr.setSelection(selection).scrollIntoView());
  view.focus();
  return true;
}

function jumpToNote(view: EditorView, id: string): boolean {
  return moveCaret(view, footnoteTextPosition(view.state.doc, id));
}

function jumpToReference(view: EditorView, id: string): boolean {
  return moveCaret(view, footnoteReferenceEnd(view.state.doc, id));
}

class FootnoteReferenceView implements NodeView {
  readonly dom: HTMLElement;
  private readonly link: HTMLAnchorElement;

  constructor(
    private node: ProseMirrorNode,
    view: EditorView,
    decorations: readonly Decoration[],
  ) {
    this.dom = document.createElement('sup');
    this.dom.className = 'footnote-ref';
    this.link = document.createElement('a');
    this.dom.append(this.link);
    this.render(decorations);
    this.link.addEventListener('click', (event) => {
      event.preventDefault();
      jumpToNote(view, String(this.node.attrs.id));
    });
  }

  private render(decorations: readonly Decoration[]): void {
    const id = String(this.node.attrs.id ?? '');
    const number = numberOf(decorations);
    this.link.href = `#${footnoteAnchor(id)}`;
    this.link.id = footnoteReferenceAnchor(id);
    this.link.textContent = number;
    this.link.setAttribute('aria-label', `Footnote ${number}`);
    this.link.setAttribute('role', 'doc-noteref');
  }

  update(node: ProseMirrorNode, decorations: readonly Decoration[]): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render(decorations);
    return true;
  }

  ignoreMutation(): boolean {
    return true;
  }
}

class FootnoteView implements NodeView {
  readonly dom: HTMLLIElement;
  readonly contentDOM: HTMLElement;
  private readonly back: HTMLButtonElement;

  constructor(
    private node: ProseMirrorNode,
    view: EditorView,
  ) {
    this.dom = document.createElement('li');
    this.contentDOM = document.createElement('div');
    this.contentDOM.className = 'footnote-body';
    this.back = document.createElement('button');
    this.back.type = 'button';
    this.back.className = 'footnote-backref';
    this.back.contentEditable = 'false';
    this.back.textContent = '↩';
    this.back.setAttribute('aria-label', 'Back to the text');
    this.back.title = 'Back to the text';
    this.back.addEventListener('mousedown', (event) => event.preventDefault());
    this.back.addEventListener('click', (event) => {
      event.preventDefault();
      jumpToReference(view, String(this.node.attrs.id));
    });
    this.dom.append(this.contentDOM, this.back);
    this.render();
  }

  private render(): void {
    this.dom.id = footnoteAnchor(String(this.node.attrs.id ?? ''));
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render();
    return true;
  }

  stopEvent(event: Event): boolean {
    return event.target instanceof Node && this.back.contains(event.target);
  }

  ignoreMutation(mutation: { target: globalThis.Node; type: string }): boolean {
    return (
      this.back.contains(mutation.target) || (mutation.type === 'attributes' && mutation.target === this.dom)
    );
  }
}

export const FootnoteBehaviour = Extension.create({
  name: 'footnoteBehaviour',

  addKeyboardShortcuts() {
    return {
      Enter: () => {
        const { selection } = this.editor.state;
        if (!(selection instanceof NodeSelection) || selection.node.type.name !== FOOTNOTE_REFERENCE)
          return false;
        return jumpToNote(this.editor.view, String(selection.node.attrs.id));
      },
    };
  },

  addProseMirrorPlugins() {
    return [
      footnoteSyncPlugin(isRemote),
      new Plugin<DecorationSet>({
        key: numbersKey,
        state: {
          init: (_config, state) => numberDecorations(state.doc),
          apply: (tr, set) => {
            if (!tr.docChanged) return set;
            return touchesFootnotes(tr) ? numberDecorations(tr.doc) : set.map(tr.mapping, tr.doc);
          },
        },
        props: {
          decorations: (state) => numbersKey.getState(state),
          nodeViews: {
            [FOOTNOTE_REFERENCE]: (node, view, _getPos, decorations) =>
              new FootnoteReferenceView(node, view, decorations),
            [FOOTNOTE]: (node, view) => new FootnoteView(node, view),
          },
        },
      }),
    ];
  },
});
