import type { Folder } from '@shared/schemas/folders';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { PeopleSection } from '@client/features/people';

/**
 * "Share…" of a folder: the same People section as a document's Share menu. A person's role holds on every
 * document in the folder and its sub-folders, those added later too.
 */
export function ShareFolderDialog({ folder, onDone }: { folder: Folder | null; onDone(): void }) {
  return (
    <Dialog open={folder !== null} onOpenChange={(open) => !open && onDone()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Share folder</DialogTitle>
          <DialogDescription>
            People you invite get their role on every document in &apos;{folder?.name}&apos; and its
            sub-folders, including documents you add later. Moving a document out of the folder takes it away.
          </DialogDescription>
        </DialogHeader>
        {/* min-w-0: a grid item of the dialog, which would otherwise grow to the address field's width. */}
        <div className="min-w-0">
          {folder ? <PeopleSection target={{ kind: 'folder', id: folder.id }} /> : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
