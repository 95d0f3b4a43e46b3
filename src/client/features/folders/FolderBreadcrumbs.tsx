import { ChevronRight } from 'lucide-react';
import { Link } from 'wouter';
import { folderHref } from './links';
import { useDocumentPlacement } from './queries';

/**
 * The folders above the document in the editor's breadcrumb (Documents › Folder › Sub-folder › title), each a
 * link to the dashboard showing that folder. On a phone only the nearest folder shows, so the title keeps its room.
 */
export function FolderBreadcrumbs({ documentId }: { documentId: string }) {
  const path = useDocumentPlacement(documentId).data?.path ?? [];
  return path.map((folder, index) => {
    const last = index === path.length - 1;
    return (
      <span key={folder.id} className={last ? 'contents' : 'hidden sm:contents'} data-testid="folder-crumb">
        <Link
          href={folderHref(folder.id)}
          className="max-w-24 shrink truncate text-muted-foreground hover:text-foreground sm:max-w-40"
        >
          {folder.name}
        </Link>
        <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
      </span>
    );
  });
}
