import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { ConvertedFile } from '@shared/schemas/imports';
import { toast } from '@client/components/ui/use-toast';
import { apiRequest, errorMessage } from '@client/lib/api';
import { isImportable } from './importable';

const CONVERT_PATH = '/api/documents/import/convert';

function convertFile(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest<ConvertedFile>('POST', CONVERT_PATH, form);
}

/**
 * Files dropped onto an open document are converted by the server (the same pipeline as an import) and
 * inserted where they were dropped, one after another. Other drops (text, moved content) are left to the
 * editor.
 */
export interface EditorFileDropOptions {
  /** Awaited before the first file is inserted (version history keeps the document as it was). */
  beforeInsert: (() => Promise<void>) | null;
}

export const EditorFileDrop = Extension.create<EditorFileDropOptions>({
  name: 'editorFileDrop',
  addOptions() {
    return { beforeInsert: null };
  },
  addProseMirrorPlugins() {
    const editor = this.editor;
    const { beforeInsert } = this.options;
    return [
      new Plugin({
        key: new PluginKey('editorFileDrop'),
        props: {
          handleDrop(view, event, _slice, moved) {
            if (moved || !event.dataTransfer?.files.length) return false;
            const files = [...event.dataTransfer.files];
            const importable = files.filter(isImportable);
            if (importable.length === 0) return false;
            event.preventDefault();
            const at =
              view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos ?? view.state.selection.to;
            void (async () => {
              let position = at;
              for (const file of importable) {
                try {
                  const converted = await convertFile(file);
                  if (position === at) await beforeInsert?.();
                  if (editor.isDestroyed) return;
                  const before = editor.state.doc.content.size;
                  editor.chain().insertContentAt(position, converted.content.content).run();
                  position += editor.state.doc.content.size - before;
                  const changes = converted.degraded.map((change) => change.message);
                  toast({
                    title: 'File inserted',
                    description:
                      `“${file.name}” was inserted where you dropped it.` +
                      (changes.length ? ` Adjusted to fit the editor: ${changes.join('; ')}.` : ''),
                  });
                } catch (error) {
                  toast({
                    title: 'Error importing document',
                    description: `${file.name}: ${errorMessage(error)}`,
                    variant: 'destructive',
                  });
                }
              }
            })();
            return true;
          },
        },
      }),
    ];
  },
});
