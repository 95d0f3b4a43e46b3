import { z } from 'zod';
import { MAX_FOLDER_NAME_LENGTH } from '../constants';
import { UUID_PATTERN } from '../uuid';

/** The folders API (`/api/folders`, `/api/documents/:id/folder`, `/api/trash/folders`): docs/library.md. */

export const folderIdSchema = z.string().regex(UUID_PATTERN, 'must be a folder id (a UUID)');

/** A folder's name: trimmed, not blank, at most MAX_FOLDER_NAME_LENGTH characters. */
const folderNameSchema = z
  .string({ message: 'Enter a folder name' })
  .trim()
  .min(1, 'Enter a folder name')
  .max(MAX_FOLDER_NAME_LENGTH, `Folder names are at most ${MAX_FOLDER_NAME_LENGTH} characters`);

/** Where something goes in a list: 0 is first; past the end is last. */
const positionSchema = z.number().int().min(0).max(100_000);

/** POST /api/folders: a new folder at the end of its parent (null or absent: the top level). */
export const createFolderBodySchema = z.object({
  name: folderNameSchema,
  parentId: folderIdSchema.nullable().optional(),
});
export type CreateFolderBody = z.input<typeof createFolderBodySchema>;

/**
 * PATCH /api/folders/:id: rename, move under another parent (null: the top level) and/or take `position`
 * among the siblings there. At least one of them.
 */
export const updateFolderBodySchema = z
  .object({
    name: folderNameSchema.optional(),
    parentId: folderIdSchema.nullable().optional(),
    position: positionSchema.optional(),
  })
  .refine((body) => body.name !== undefined || body.parentId !== undefined || body.position !== undefined, {
    message: 'send name, parentId or position',
  });
export type UpdateFolderBody = z.input<typeof updateFolderBodySchema>;

/**
 * PUT /api/documents/:id/folder: put the document in a folder (null: the top level), at `position` among the
 * documents there (absent: last, or where it is when it is already there).
 */
export const placeDocumentBodySchema = z.object({
  folderId: folderIdSchema.nullable(),
  position: positionSchema.optional(),
});
export type PlaceDocumentBody = z.input<typeof placeDocumentBodySchema>;

/** One folder of GET /api/folders. */
export interface Folder {
  id: string;
  parentId: string | null;
  name: string;
  position: number;
  /** Documents directly inside (not in its sub-folders), outside the trash. */
  documentCount: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/folders: every folder of the user outside the trash, siblings in their order. */
export interface FolderTree {
  folders: Folder[];
  /** Documents at the top level (in no folder). */
  topLevelCount: number;
}

/** GET/PUT /api/documents/:id/folder. */
export interface DocumentPlacement {
  folderId: string | null;
  /** From the top-level folder down to the document's own folder; empty at the top level. */
  path: { id: string; name: string }[];
}

/** One folder of GET /api/trash/folders: a folder deleted with all it held. */
export interface TrashedFolder {
  id: string;
  name: string;
  /** ISO 8601. */
  trashedAt: string;
  /** When the purge deletes it for good, with what it held (ISO 8601). */
  purgeAt: string;
  /** Documents that went to the trash with it (its sub-folders' included). */
  documentCount: number;
  /** Sub-folders that went with it. */
  folderCount: number;
}
