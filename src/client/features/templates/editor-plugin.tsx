import type { EditorHeaderActionProps, EditorPlugin } from '@client/features/editor';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import type { DocumentActionsMenuProps } from './DocumentActionsMenu';
import { DocumentActionsTrigger } from './DocumentActionsTrigger';

// The menu and its dialog carry their libraries: fetched right after the editor's first paint, so typing does
// not wait for them.
const actionsMenu = onDemand<DocumentActionsMenuProps>(
  async () => (await import('./DocumentActionsMenu')).DocumentActionsMenu,
);

function HeaderDocumentActions({ documentId, title }: EditorHeaderActionProps) {
  return (
    <OnDemandControl
      control={actionsMenu}
      standIn={<DocumentActionsTrigger aria-haspopup="menu" aria-expanded={false} />}
    >
      {(Menu, openOnArrival) => <Menu documentId={documentId} title={title} defaultOpen={openOnArrival} />}
    </OnDemandControl>
  );
}

/** The editor header's Document actions menu: pin the document, save it as a template. */
export const templatesEditorPlugin: EditorPlugin = { name: 'templates', HeaderAction: HeaderDocumentActions };
