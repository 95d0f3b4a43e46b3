import { z } from 'zod';
import { emailSchema } from './auth';

/**
 * People on a document or a folder (`/api/documents/:id/members`, `/api/folders/:id/members`,
 * `/api/shared-with-me`): the owner invites an e-mail address with a role; the person works on the document, or on
 * every document in the folder and its sub-folders, with what the role allows.
 */

/** A member's role, least to most: a commenter reads and comments on passages, a suggester also proposes changes. */
export const MEMBER_ROLES = ['viewer', 'commenter', 'suggester', 'editor'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

const roleSchema = z.enum(MEMBER_ROLES, { message: 'Choose a role: viewer, commenter, suggester or editor' });

/** `POST /api/documents/:id/members`, `POST /api/folders/:id/members`. */
export const inviteMemberSchema = z.object({ email: emailSchema, role: roleSchema });
export type InviteMember = z.infer<typeof inviteMemberSchema>;

/** `PATCH /api/documents/:id/members/:memberId`, `PATCH /api/folders/:id/members/:memberId`. */
export const updateMemberSchema = z.object({ role: roleSchema });

export interface DocumentMember {
  id: string;
  email: string;
  /** The account's name; null while the invitation waits for the address to sign up. */
  name: string | null;
  role: MemberRole;
  invitedAt: string;
  /** When the address had an account (at once for an existing one); null while the invitation waits. */
  acceptedAt: string | null;
}

export interface DocumentMembers {
  members: DocumentMember[];
  /** How many people the owner's plan allows on one document (or folder); null for no limit. */
  limit: number | null;
}

/** One row of "Shared with me". */
export interface SharedWithMeDocument {
  id: string;
  title: string;
  /** The strongest of the person's roles on it: their own on the document and those of folders above it. */
  role: MemberRole;
  ownerName: string;
  updatedAt: string;
  /** The top-most folder shared with the person that holds the document (at any depth); null for none. */
  folder: { id: string; name: string } | null;
}

/** `GET /api/shared-with-me/:id`: what a member opening the document needs. */
export interface MemberDocument {
  id: string;
  title: string;
  /** The member's role; `owner` when the document is the caller's own (the client opens the editor). */
  role: MemberRole | 'owner';
  ownerName: string;
  content: unknown;
  updatedAt: string;
}
