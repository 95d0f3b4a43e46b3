import type { EditorPlugin, EditorHeaderActionProps } from '@client/features/editor';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import type { ExportMenuProps } from './ExportMenu';
import { ExportTrigger } from './ExportTrigger';

// The export menu carries its menu library: fetched right after the editor's first paint, so typing does not
// wait for it.
const exportMenu = onDemand<ExportMenuProps>(async () => (await import('./ExportMenu')).ExportMenu);

function HeaderExportMenu({ documentId, editor, title }: EditorHeaderActionProps) {
  return (
    <OnDemandControl
      control={exportMenu}
      standIn={<ExportTrigger disabled={!editor} aria-haspopup="menu" aria-expanded={false} />}
    >
      {(ExportMenu, openOnArrival) => (
        <ExportMenu editor={editor} title={title} documentId={documentId} defaultOpen={openOnArrival} />
      )}
    </OnDemandControl>
  );
}

/** The editor header's Export menu (PDF, EPUB, print, md, html, txt, docx; Compile book…). */
export const exportEditorPlugin: EditorPlugin = { name: 'export', HeaderAction: HeaderExportMenu };
