import { Extension, type Editor } from '@tiptap/core';
import type { ImageUploadStorage } from '@client/features/editor';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { ACCEPTED_IMAGE_TYPES, isImageFile, uploadImage, uploadProblem, type ImageAuth } from './api';
import { ImageAccessTokens } from './access';
import { ImageNodeView } from './image-view';

/**
 * Images into the editor: the file chooser (toolbar, '/image'), a pasted image (a screenshot from the
 * clipboard) and dropped image files are uploaded to the document and inserted where they were asked for.
 * While one uploads, a placeholder stands at its place (it moves with the text others type); a refusal
 * leaves a toast with the server's message. The editor shows images through ImageNodeView.
 */

export interface ImageUploadOptions {
  documentId: string;
  auth: ImageAuth;
  /** Whether this writer may add images (owner, editors); others only see them and their alt text. */
  canUpload: boolean;
}

/** Asking for an image's settings (alt text, width, alignment): where it is now, or undefined if gone. */
export interface ImageEditRequest {
  position: () => number | undefined;
}

interface ImageController {
  tokens: ImageAccessTokens;
  editListeners: Set<(request: ImageEditRequest) => void>;
}

const controllers = new WeakMap<Editor, ImageController>();

/** Subscribes to requests to edit an image's settings (the settings dialog); returns the unsubscribe. */
export function onImageEdit(editor: Editor, listener: (request: ImageEditRequest) => void): () => void {
  const controller = controllers.get(editor);
  if (!controller) return () => {};
  controller.editListeners.add(listener);
  return () => controller.editListeners.delete(listener);
}

function requestEdit(editor: Editor, request: ImageEditRequest): void {
  for (const listener of controllers.get(editor)?.editListeners ?? []) listener(request);
}

type PlaceholderMeta = { add: { id: string; position: number } } | { remove: string };
const placeholderKey = new PluginKey<DecorationSet>('imageUploadPlaceholders');

function placeholderWidget(): HTMLElement {
  const element = document.createElement('div');
  element.className =
    'qw-image-placeholder my-4 flex h-32 animate-pulse items-center justify-center rounded-md border border-dashed text-sm text-muted-foreground';
  element.setAttribute('role', 'status');
  element.textContent = 'Uploading image…';
  return element;
}

function placeholderPosition(state: EditorState, id: string): number | undefined {
  const set = placeholderKey.getState(state);
  return set?.find(undefined, undefined, (spec) => spec.id === id)[0]?.from;
}

let uploadCount = 0;

async function uploadAt(editor: Editor, options: ImageUploadOptions, file: File, position: number) {
  const problem = uploadProblem(file);
  if (problem) {
    toast({ title: 'Image not added', description: problem, variant: 'destructive' });
    return;
  }
  const id = `upload-${++uploadCount}`;
  editor.view.dispatch(
    editor.state.tr.setMeta(placeholderKey, { add: { id, position } } satisfies PlaceholderMeta),
  );
  try {
    const image = await uploadImage(options.documentId, file, options.auth);
    if (editor.isDestroyed) return;
    const at = placeholderPosition(editor.state, id) ?? editor.state.selection.to;
    editor.view.dispatch(editor.state.tr.setMeta(placeholderKey, { remove: id } satisfies PlaceholderMeta));
    editor
      .chain()
      .insertContentAt(at, { type: 'image', attrs: { src: image.src, alt: null } })
      .run();
    // Ask for the alt text at once: the image it is about is in front of the writer now.
    const found = findImage(editor, image.src, at);
    if (found !== undefined) requestEdit(editor, { position: () => findImage(editor, image.src, at) });
  } catch (error) {
    if (!editor.isDestroyed) {
      editor.view.dispatch(editor.state.tr.setMeta(placeholderKey, { remove: id } satisfies PlaceholderMeta));
    }
    toast({ title: 'Image not added', description: errorMessage(error), variant: 'destructive' });
  }
}

/** Where the image with `src` is, the one closest to `near` (the same image may be in the text twice). */
function findImage(editor: Editor, src: string, near: number): number | undefined {
  let best: number | undefined;
  editor.state.doc.descendants((node, position) => {
    if (node.type.name === 'image' && node.attrs.src === src) {
      if (best === undefined || Math.abs(position - near) < Math.abs(best - near)) best = position;
    }
    return !node.isBlock || node.type.name !== 'image';
  });
  return best;
}

function uploadAll(editor: Editor, options: ImageUploadOptions, files: File[], position: number) {
  // One after another, each at the place of the one before it (an image is a block: it goes after).
  void (async () => {
    for (const file of files) await uploadAt(editor, options, file, position);
  })();
}

export const ImageUpload = Extension.create<ImageUploadOptions, ImageUploadStorage>({
  name: 'imageUpload',

  addOptions() {
    return { documentId: '', auth: { kind: 'session' }, canUpload: true };
  },

  addStorage(): ImageUploadStorage {
    // Filled in with the editor (addProseMirrorPlugins), which storage is made before.
    return { chooseFile: () => {} };
  },

  onDestroy() {
    controllers.get(this.editor)?.tokens.dispose();
    controllers.delete(this.editor);
  },

  addProseMirrorPlugins() {
    const editor = this.editor;
    const options = this.options;
    // Made before onCreate, so the node views of the first render have their tokens.
    const tokens = new ImageAccessTokens(options.auth);
    const controller: ImageController = { tokens, editListeners: new Set() };
    controllers.set(editor, controller);
    this.storage.chooseFile = () => {
      if (!options.canUpload) return;
      const input = document.createElement('input');
      input.type = 'file';
      input.accept = ACCEPTED_IMAGE_TYPES;
      input.multiple = true;
      input.addEventListener('change', () => {
        const files = [...(input.files ?? [])];
        if (files.length > 0) uploadAll(editor, options, files, editor.state.selection.from);
      });
      input.click();
    };
    const imageFiles = (list: FileList | undefined | null) => [...(list ?? [])].filter(isImageFile);
    return [
      new Plugin<DecorationSet>({
        key: placeholderKey,
        state: {
          init: () => DecorationSet.empty,
          apply(tr, set) {
            let next = set.map(tr.mapping, tr.doc);
            const meta = tr.getMeta(placeholderKey) as PlaceholderMeta | undefined;
            if (meta && 'add' in meta) {
              const position = Math.min(meta.add.position, tr.doc.content.size);
              const widget = Decoration.widget(position, placeholderWidget, { id: meta.add.id, side: 1 });
              next = next.add(tr.doc, [widget]);
            } else if (meta && 'remove' in meta) {
              next = next.remove(next.find(undefined, undefined, (spec) => spec.id === meta.remove));
            }
            return next;
          },
        },
        props: {
          decorations: (state) => placeholderKey.getState(state),
          nodeViews: {
            image: (node, _view, getPos) =>
              new ImageNodeView(node, tokens, {
                editable: () => editor.isEditable,
                onEdit: () => requestEdit(editor, { position: () => getPos() }),
                onResize: (width) => {
                  const position = getPos();
                  const current = position === undefined ? null : editor.state.doc.nodeAt(position);
                  if (position === undefined || current?.type.name !== 'image') return;
                  editor.view.dispatch(
                    editor.state.tr.setNodeMarkup(position, undefined, { ...current.attrs, width }),
                  );
                },
              }),
          },
          handlePaste(view, event) {
            const files = imageFiles(event.clipboardData?.files);
            if (files.length === 0 || !editor.isEditable || !options.canUpload) return false;
            event.preventDefault();
            uploadAll(editor, options, files, view.state.selection.from);
            return true;
          },
          handleDrop(view, event, _slice, moved) {
            if (moved) return false;
            const files = imageFiles(event.dataTransfer?.files);
            if (files.length === 0 || !editor.isEditable || !options.canUpload) return false;
            event.preventDefault();
            const at =
              view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.selection.to;
            uploadAll(editor, options, files, at);
            return true;
          },
        },
      }),
    ];
  },
});
