import type { EditorPlugin } from '@client/features/editor';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import { ShareTrigger } from './ShareTrigger';

// The share menu carries its popover library: fetched right after the editor's first paint, so typing does not
// wait for it.
const shareMenu = onDemand(async () => (await import('./ShareMenu')).ShareMenu);

function HeaderShareMenu({ documentId }: { documentId: string }) {
  return (
    <OnDemandControl
      control={shareMenu}
      standIn={<ShareTrigger aria-haspopup="dialog" aria-expanded={false} />}
    >
      {(ShareMenu, openOnArrival) => <ShareMenu documentId={documentId} defaultOpen={openOnArrival} />}
    </OnDemandControl>
  );
}

/** The editor header's Share menu (share links, publishing). */
export const sharingEditorPlugin: EditorPlugin = { name: 'sharing', HeaderAction: HeaderShareMenu };
