import type { Folder } from '@shared/schemas/folders';

/** One folder with its depth (a top-level folder is 0), in the tree's reading order. */
export interface FolderLine {
  folder: Folder;
  depth: number;
  hasChildren: boolean;
}

/** The folders in reading order (each followed by its sub-folders), skipping what sits under a collapsed one. */
export function folderLines(
  folders: readonly Folder[],
  collapsed: ReadonlySet<string> = new Set(),
): FolderLine[] {
  const children = new Map<string | null, Folder[]>();
  for (const folder of folders) {
    const siblings = children.get(folder.parentId) ?? [];
    siblings.push(folder);
    children.set(folder.parentId, siblings);
  }
  const lines: FolderLine[] = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const folder of children.get(parentId) ?? []) {
      const hasChildren = (children.get(folder.id)?.length ?? 0) > 0;
      lines.push({ folder, depth, hasChildren });
      if (!collapsed.has(folder.id)) walk(folder.id, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}
