import type { ServerDependencies } from '../dependencies';
import {
  countDocumentsPerFolder,
  countDocumentsTrashedWith,
  findDocumentFolder,
  listDocumentIdsInFolders,
} from '../documents';
import { badRequest, notFound } from '../errors';
import { MAX_FOLDER_DEPTH, MAX_FOLDERS_PER_USER } from '../../shared/constants';
import type {
  CreateFolderBody,
  DocumentPlacement,
  Folder,
  FolderTree,
  TrashedFolder,
} from '../../shared/schemas/folders';
import {
  deleteTrashedFolders,
  findTrashedRoot,
  foldersTrashedWith,
  insertFolder,
  isLiveFolderOf,
  listFoldersOf,
  listTrashedFoldersOf,
  lockTreeOf,
  restoreFoldersTrashedWith,
  setFolderOrder,
  trashFolders,
  updateFolder,
  type FolderRow,
} from './repository';

/**
 * The rules of folders (docs/library.md): a tree per user, at most MAX_FOLDER_DEPTH deep, without loops. Every
 * change of the tree locks the user's folders first, so two moves cannot together make a loop. Documents move
 * between folders through the document writer, which calls back here to check the folder in its transaction.
 */

export type FoldersContext = Pick<ServerDependencies, 'db' | 'documentWriter' | 'documentEvents'>;

const DAY_MS = 86_400_000;
const folderNotFound = () => notFound('Folder not found', 'folder_not_found');

/** The tree as parent links, with depth (a top-level folder is 1) and the ids under a folder. */
class Tree {
  private readonly byId = new Map<string, FolderRow>();
  constructor(readonly rows: FolderRow[]) {
    for (const row of rows) this.byId.set(row.id, row);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): FolderRow | undefined {
    return this.byId.get(id);
  }

  depth(id: string): number {
    let depth = 0;
    for (let at: string | null | undefined = id; at && depth <= this.rows.length; depth++) {
      at = this.byId.get(at)?.parentId;
    }
    return depth;
  }

  /** The folder and everything under it. */
  subtree(id: string): string[] {
    const ids = [id];
    for (let i = 0; i < ids.length; i++) {
      for (const row of this.rows) if (row.parentId === ids[i]) ids.push(row.id);
    }
    return ids;
  }

  /** Levels from the folder down to its deepest sub-folder (1 for a folder without any). */
  height(id: string): number {
    const children = this.rows.filter((row) => row.parentId === id);
    return 1 + Math.max(0, ...children.map((child) => this.height(child.id)));
  }

  /** Sibling ids in their order, without `except`. */
  childrenOf(parentId: string | null, except?: string): string[] {
    return this.rows.filter((row) => row.parentId === parentId && row.id !== except).map((row) => row.id);
  }
}

function present(row: FolderRow, counts: Map<string | null, number>): Folder {
  return {
    id: row.id,
    parentId: row.parentId,
    name: row.name,
    position: row.position,
    documentCount: counts.get(row.id) ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Re-decides the open connections to these documents (the folders above them changed). */
async function announceAccess(ctx: FoldersContext, documentIds: readonly string[]): Promise<void> {
  for (const documentId of documentIds) {
    await ctx.documentEvents.publish({ type: 'access.changed', documentId });
  }
}

function tooDeep(): never {
  throw badRequest(`Folders nest at most ${MAX_FOLDER_DEPTH} levels deep`, 'folder_too_deep');
}

export async function folderTree(ctx: FoldersContext, userId: string): Promise<FolderTree> {
  const [rows, counts] = await Promise.all([
    listFoldersOf(ctx.db, userId),
    countDocumentsPerFolder(ctx.db, userId),
  ]);
  return { folders: rows.map((row) => present(row, counts)), topLevelCount: counts.get(null) ?? 0 };
}

/** A folder and its sub-folders, each with its path of names from the folder down (for a folder export). */
export async function folderWithSubfolders(
  ctx: Pick<FoldersContext, 'db'>,
  userId: string,
  folderId: string,
): Promise<{ name: string; folders: { id: string; path: string[] }[] }> {
  const tree = new Tree(await listFoldersOf(ctx.db, userId));
  const root = tree.get(folderId);
  if (!root) throw folderNotFound();
  const paths = new Map<string, string[]>([[folderId, []]]);
  for (const id of tree.subtree(folderId).slice(1)) {
    const row = tree.get(id)!;
    paths.set(id, [...paths.get(row.parentId!)!, row.name]);
  }
  return { name: root.name, folders: [...paths].map(([id, path]) => ({ id, path })) };
}

/** 404 unless the folder is the user's and outside the trash (lists and searches limited to a folder). */
export async function assertFolderOf(ctx: Pick<FoldersContext, 'db'>, userId: string, folderId: string) {
  if (!(await isLiveFolderOf(ctx.db, userId, folderId))) throw folderNotFound();
}

export async function createFolder(
  ctx: FoldersContext,
  userId: string,
  body: CreateFolderBody,
): Promise<Folder> {
  const parentId = body.parentId ?? null;
  const row = await ctx.db.transaction(async (tx) => {
    const tree = new Tree(await lockTreeOf(tx, userId));
    if (parentId !== null && !tree.has(parentId)) throw folderNotFound();
    if (tree.rows.length >= MAX_FOLDERS_PER_USER) {
      throw badRequest(`You can keep at most ${MAX_FOLDERS_PER_USER} folders`, 'folder_limit');
    }
    if (parentId !== null && tree.depth(parentId) + 1 > MAX_FOLDER_DEPTH) tooDeep();
    const last = Math.max(-1, ...tree.childrenOf(parentId).map((id) => tree.get(id)!.position));
    return insertFolder(tx, { userId, parentId, name: body.name.trim(), position: last + 1 });
  });
  return present(row, new Map());
}

/** Rename, move under another parent and/or reorder among the siblings. */
export async function updateFolderOf(
  ctx: FoldersContext,
  userId: string,
  folderId: string,
  body: { name?: string | undefined; parentId?: string | null | undefined; position?: number | undefined },
): Promise<Folder> {
  const moved = await ctx.db.transaction(async (tx) => {
    const tree = new Tree(await lockTreeOf(tx, userId));
    const folder = tree.get(folderId);
    if (!folder) throw folderNotFound();
    const parentId = body.parentId === undefined ? folder.parentId : body.parentId;
    if (parentId !== folder.parentId) {
      if (parentId !== null && !tree.has(parentId)) throw folderNotFound();
      if (parentId !== null && tree.subtree(folderId).includes(parentId)) {
        throw badRequest('A folder cannot go inside itself or one of its sub-folders', 'folder_cycle');
      }
      if ((parentId === null ? 0 : tree.depth(parentId)) + tree.height(folderId) > MAX_FOLDER_DEPTH)
        tooDeep();
    }
    if (body.name !== undefined || parentId !== folder.parentId) {
      await updateFolder(tx, userId, folderId, { name: body.name?.trim(), parentId });
    }
    if (body.position !== undefined || parentId !== folder.parentId) {
      const order = tree.childrenOf(parentId, folderId);
      order.splice(Math.min(body.position ?? order.length, order.length), 0, folderId);
      await setFolderOrder(tx, userId, order);
    }
    return parentId !== folder.parentId ? tree.subtree(folderId) : [];
  });
  // A folder that moved may have left (or entered) a folder shared with people: their open documents under it
  // are re-decided at once.
  await announceAccess(ctx, await listDocumentIdsInFolders(ctx.db, userId, moved));
  const tree = await folderTree(ctx, userId);
  return tree.folders.find((folder) => folder.id === folderId)!;
}

/** Deleting a folder: it, its sub-folders and the documents in them go to the trash together. */
export async function trashFolder(ctx: FoldersContext, userId: string, folderId: string): Promise<void> {
  await ctx.documentWriter.trashFolder(userId, folderId, async (tx) => {
    const tree = new Tree(await lockTreeOf(tx, userId));
    if (!tree.has(folderId)) throw folderNotFound();
    const ids = tree.subtree(folderId);
    await trashFolders(tx, userId, ids, folderId);
    return ids;
  });
}

/**
 * Restoring a folder brings back what went to the trash with it. It goes back under its parent when that is
 * still there and deep enough room remains, else to the top level.
 */
export async function restoreFolder(ctx: FoldersContext, userId: string, folderId: string): Promise<void> {
  await ctx.documentWriter.restoreFolder(userId, folderId, async (tx) => {
    const root = await findTrashedRoot(tx, userId, folderId);
    if (!root) throw folderNotFound();
    const tree = new Tree(await lockTreeOf(tx, userId));
    let parentId = root.parentId && tree.has(root.parentId) ? root.parentId : null;
    if (parentId !== null) {
      const height = new Tree(await foldersTrashedWith(tx, userId, folderId)).height(folderId);
      if (tree.depth(parentId) + height > MAX_FOLDER_DEPTH) parentId = null;
    }
    await restoreFoldersTrashedWith(tx, userId, folderId, parentId);
  });
}

/** Deletes a trashed folder for good with what went with it (every trashed folder when `folderId` is undefined). */
export async function deleteFolderForever(
  ctx: FoldersContext,
  userId: string,
  folderId: string | undefined,
): Promise<void> {
  await ctx.documentWriter.deleteFolderForever(userId, folderId, async (tx) => {
    if (folderId !== undefined && !(await findTrashedRoot(tx, userId, folderId))) throw folderNotFound();
    await deleteTrashedFolders(tx, userId, folderId);
  });
}

export async function trashedFolders(
  ctx: FoldersContext,
  userId: string,
  retentionDays: number,
): Promise<TrashedFolder[]> {
  const rows = await listTrashedFoldersOf(ctx.db, userId);
  const counts = await countDocumentsTrashedWith(
    ctx.db,
    userId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    trashedAt: row.trashedAt.toISOString(),
    purgeAt: new Date(row.trashedAt.getTime() + retentionDays * DAY_MS).toISOString(),
    documentCount: counts.get(row.id) ?? 0,
    folderCount: row.folderCount,
  }));
}

/** The document's folder and the folders above it; 404 when the document is not the user's. */
export async function documentPlacement(
  ctx: FoldersContext,
  userId: string,
  documentId: string,
): Promise<DocumentPlacement> {
  const [found, rows] = await Promise.all([
    findDocumentFolder(ctx.db, userId, documentId),
    listFoldersOf(ctx.db, userId),
  ]);
  if (!found) throw notFound('Document not found');
  const tree = new Tree(rows);
  const path: DocumentPlacement['path'] = [];
  for (let at = found.folderId; at && path.length <= rows.length; at = tree.get(at)?.parentId ?? null) {
    const folder = tree.get(at);
    if (!folder) break;
    path.unshift({ id: folder.id, name: folder.name });
  }
  return { folderId: found.folderId, path };
}

/** Puts the user's document in their folder (null: the top level) at `position` among the documents there. */
export async function placeDocument(
  ctx: FoldersContext,
  userId: string,
  documentId: string,
  body: { folderId: string | null; position?: number | undefined },
): Promise<DocumentPlacement> {
  const { folderId } = body;
  await ctx.documentWriter.place({
    userId,
    documentId,
    folderId,
    position: body.position,
    checkFolder: async (tx) => {
      if (folderId === null) return;
      const tree = new Tree(await lockTreeOf(tx, userId));
      if (!tree.has(folderId)) throw folderNotFound();
    },
  });
  // Another folder can mean other people: a folder member's open editor is re-decided at once.
  await announceAccess(ctx, [documentId]);
  return documentPlacement(ctx, userId, documentId);
}
