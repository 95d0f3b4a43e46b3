import { z } from 'zod';
import { DASHBOARD_PAGE_SIZE, LIBRARY_MAX_LIMIT } from '../constants';

/** The trash API (`/api/trash`): a user's deleted documents, restorable until they are purged. */

/** `GET /api/trash?limit=…&offset=…`: paged like the dashboard's list. */
export const trashQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIBRARY_MAX_LIMIT).default(DASHBOARD_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});

export interface TrashedDocument {
  id: string;
  title: string;
  /** When it was moved to the trash (ISO 8601). */
  trashedAt: string;
  /** When the purge deletes it for good, unless it is restored first (ISO 8601). */
  purgeAt: string;
}

export interface TrashPage {
  /** How many documents the user's trash holds in all. */
  total: number;
  /** How long this server keeps a document in the trash. */
  retentionDays: number;
  /** Most recently trashed first. */
  documents: TrashedDocument[];
}
