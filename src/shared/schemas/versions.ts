import { z } from 'zod';
import { MAX_VERSION_NAME_LENGTH } from '../constants';
import type { RichTextDoc } from './richText';
import { UUID_PATTERN } from '../uuid';

/** Version history API (`/api/documents/:id/versions`): request bodies and response shapes. */

export type VersionReason = 'auto' | 'ai' | 'restore' | 'import' | 'manual' | 'session_end';

export interface VersionAuthor {
  /** A user id, or `ai` for AI changes, or `share-link` for visitors editing through a share link. */
  id: string;
  name: string;
}

/** One row of GET /api/documents/:id/versions (newest first, no content). */
export interface VersionSummary {
  id: string;
  created_at: string;
  reason: VersionReason;
  name: string | null;
  authors: VersionAuthor[];
  word_count: number;
}

/** GET /api/documents/:id/versions/:versionId */
export interface VersionDetail {
  id: string;
  created_at: string;
  reason: VersionReason;
  name: string | null;
  title: string;
  content: RichTextDoc;
}

export const versionIdSchema = z.string().regex(UUID_PATTERN, 'must be a version id (a UUID)');

/** POST /api/documents/:id/versions: name the current state. */
export const saveVersionBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_VERSION_NAME_LENGTH, `must be at most ${MAX_VERSION_NAME_LENGTH} characters`),
});

/**
 * POST /api/documents/:id/versions/checkpoint: the client is about to replace content itself (an AI answer
 * it applies, an import over the document) and asks for a version of the current state first.
 */
export const checkpointBodySchema = z.object({ reason: z.enum(['ai', 'import']) });
export type CheckpointBody = z.input<typeof checkpointBodySchema>;
