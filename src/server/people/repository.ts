import { and, asc, count, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentMembers, folderMembers, users } from '../db/schema';
import type { MemberRole } from '../../shared/schemas/people';

/** Every SQL statement on `document_members`, `folder_members` (and the few reads of `users` inviting needs). */

export interface MemberRecord {
  id: string;
  email: string;
  name: string | null;
  role: MemberRole;
  invitedAt: Date;
  acceptedAt: Date | null;
}

const memberColumns = {
  id: documentMembers.id,
  email: documentMembers.email,
  name: users.fullName,
  role: documentMembers.role,
  invitedAt: documentMembers.invitedAt,
  acceptedAt: documentMembers.acceptedAt,
};

/** The document's people, in the order they were invited. */
export function listMembers(db: Db, documentId: string): Promise<MemberRecord[]> {
  return db
    .select(memberColumns)
    .from(documentMembers)
    .leftJoin(users, eq(users.id, documentMembers.userId))
    .where(eq(documentMembers.documentId, documentId))
    .orderBy(asc(documentMembers.invitedAt), asc(documentMembers.email));
}

/** Members and waiting invitations of the document: what the plan's people limit counts. */
export async function countMembers(db: Pick<Db, 'select'>, documentId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(documentMembers)
    .where(eq(documentMembers.documentId, documentId));
  return row?.n ?? 0;
}

/** The account with this (confirmed) address; an unconfirmed one gets its invitations when it is confirmed. */
export async function findConfirmedUser(
  db: Pick<Db, 'select'>,
  email: string,
): Promise<{ id: string; fullName: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, fullName: users.fullName })
    .from(users)
    .where(and(eq(users.email, email), isNotNull(users.emailConfirmedAt)))
    .limit(1);
  return row;
}

export async function findUserName(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ fullName: users.fullName, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.fullName || row?.email || 'Someone';
}

/** Adds a member or an invitation; undefined when the address is already on the document. */
export async function insertMember(
  db: Pick<Db, 'insert'>,
  values: { documentId: string; userId: string | null; email: string; role: MemberRole; invitedBy: string },
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .insert(documentMembers)
    .values({ ...values, acceptedAt: values.userId ? new Date() : null })
    .onConflictDoNothing({ target: [documentMembers.documentId, documentMembers.email] })
    .returning({ id: documentMembers.id });
  return row;
}

export async function updateMemberRole(
  db: Db,
  documentId: string,
  memberId: string,
  role: MemberRole,
): Promise<boolean> {
  const rows = await db
    .update(documentMembers)
    .set({ role })
    .where(and(eq(documentMembers.id, memberId), eq(documentMembers.documentId, documentId)))
    .returning({ id: documentMembers.id });
  return rows.length > 0;
}

export async function deleteMember(db: Db, documentId: string, memberId: string): Promise<boolean> {
  const rows = await db
    .delete(documentMembers)
    .where(and(eq(documentMembers.id, memberId), eq(documentMembers.documentId, documentId)))
    .returning({ id: documentMembers.id });
  return rows.length > 0;
}

/** The owner's plan, with their row locked until the transaction ends, so concurrent invitations take turns. */
export async function lockPlanOf(db: Pick<Db, 'select'>, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ plan: users.plan })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
    .limit(1);
  return row?.plan;
}

// ---------------------------------------------------------------------------------------------------------
// People on a folder: the same statements on `folder_members`

const folderMemberColumns = {
  id: folderMembers.id,
  email: folderMembers.email,
  name: users.fullName,
  role: folderMembers.role,
  invitedAt: folderMembers.invitedAt,
  acceptedAt: folderMembers.acceptedAt,
};

/** The folder's people, in the order they were invited. */
export function listFolderMembers(db: Db, folderId: string): Promise<MemberRecord[]> {
  return db
    .select(folderMemberColumns)
    .from(folderMembers)
    .leftJoin(users, eq(users.id, folderMembers.userId))
    .where(eq(folderMembers.folderId, folderId))
    .orderBy(asc(folderMembers.invitedAt), asc(folderMembers.email));
}

/** Members and waiting invitations of the folder: what the plan's people limit counts. */
export async function countFolderMembers(db: Pick<Db, 'select'>, folderId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(folderMembers)
    .where(eq(folderMembers.folderId, folderId));
  return row?.n ?? 0;
}

/** Adds a member or an invitation to the folder; undefined when the address is already on it. */
export async function insertFolderMember(
  db: Pick<Db, 'insert'>,
  values: { folderId: string; userId: string | null; email: string; role: MemberRole; invitedBy: string },
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .insert(folderMembers)
    .values({ ...values, acceptedAt: values.userId ? new Date() : null })
    .onConflictDoNothing({ target: [folderMembers.folderId, folderMembers.email] })
    .returning({ id: folderMembers.id });
  return row;
}

export async function updateFolderMemberRole(
  db: Db,
  folderId: string,
  memberId: string,
  role: MemberRole,
): Promise<boolean> {
  const rows = await db
    .update(folderMembers)
    .set({ role })
    .where(and(eq(folderMembers.id, memberId), eq(folderMembers.folderId, folderId)))
    .returning({ id: folderMembers.id });
  return rows.length > 0;
}

export async function deleteFolderMember(db: Db, folderId: string, memberId: string): Promise<boolean> {
  const rows = await db
    .delete(folderMembers)
    .where(and(eq(folderMembers.id, memberId), eq(folderMembers.folderId, folderId)))
    .returning({ id: folderMembers.id });
  return rows.length > 0;
}
