import type { Editor } from '@tiptap/core';
import { ExportTrigger } from '@client/features/export/ExportTrigger';
import type { ExportMenuProps } from '@client/features/export/ExportMenu';
import { ShareTrigger } from '@client/features/sharing/ShareTrigger';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';

// The header's menus carry their popover and menu libraries: fetched right after the editor's first paint,
// so typing does not wait for them.
const shareMenu = onDemand(async () => (await import('@client/features/sharing/ShareMenu')).ShareMenu);
const exportMenu = onDemand<ExportMenuProps>(
  async () => (await import('@client/features/export/ExportMenu')).ExportMenu,
);

export function HeaderShareMenu({ documentId }: { documentId: string }) {
  return (
    <OnDemandControl
      control={shareMenu}
      standIn={<ShareTrigger aria-haspopup="dialog" aria-expanded={false} />}
    >
      {(ShareMenu, openOnArrival) => <ShareMenu documentId={documentId} defaultOpen={openOnArrival} />}
    </OnDemandControl>
  );
}

export function HeaderExportMenu({ editor, title }: { editor: Editor | null; title: string }) {
  return (
    <OnDemandControl
      control={exportMenu}
      standIn={<ExportTrigger disabled={!editor} aria-haspopup="menu" aria-expanded={false} />}
    >
      {(ExportMenu, openOnArrival) => (
        <ExportMenu editor={editor} title={title} defaultOpen={openOnArrival} />
      )}
    </OnDemandControl>
  );
}
