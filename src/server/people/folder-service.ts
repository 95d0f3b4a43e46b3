import { getUserPlan, limitsEnforced } from '../billing';
import { listDocumentIdsInFolders } from '../documents';
import { AppError, badRequest, conflict, notFound } from '../errors';
import { folderWithSubfolders } from '../folders';
import { folderInvitationMail } from '../mail';
import { isPlanId, planById } from '../../shared/plans';
import type { DocumentMember, DocumentMembers, InviteMember, MemberRole } from '../../shared/schemas/people';
import {
  countFolderMembers,
  deleteFolderMember,
  findConfirmedUser,
  findUserName,
  insertFolderMember,
  listFolderMembers,
  lockPlanOf,
  updateFolderMemberRole,
} from './repository';
import { presentMember, type PeopleContext } from './service';

/**
 * People on a folder: the owner invites an address with a role, and the documents policy gives that role on
 * every document in the folder and in its sub-folders (documents/policy.ts). Only the folder's owner manages
 * them; anyone else is told the folder does not exist. A change re-decides the live connections of every
 * document under the folder at once.
 */

/** What the invitation mail says the role lets the person do with the folder's documents. */
const ROLE_TEXT: Record<MemberRole, string> = {
  viewer: 'can read its documents',
  commenter: 'can read and comment on its documents',
  suggester: 'can suggest changes to its documents',
  editor: 'can edit its documents',
};

/** The folder (the caller's, outside the trash) and everything under it; 404 otherwise. */
const ownerOnly = (ctx: PeopleContext, userId: string, folderId: string) =>
  folderWithSubfolders(ctx, userId, folderId);

/** How many people one folder of this owner may have; null when no limit applies on this server. */
function peopleLimit(ctx: PeopleContext, plan: string | undefined): number | null {
  if (!limitsEnforced(ctx.config)) return null;
  return planById(plan && isPlanId(plan) ? plan : 'gratis').limits.peoplePerFolder;
}

/** Re-decides every open connection to a document under the folder (a role given or taken away). */
async function announce(ctx: PeopleContext, userId: string, folderIds: readonly string[]): Promise<void> {
  for (const documentId of await listDocumentIdsInFolders(ctx.db, userId, folderIds)) {
    await ctx.documentEvents.publish({ type: 'access.changed', documentId });
  }
}

export async function getFolderMembers(
  ctx: PeopleContext,
  userId: string,
  folderId: string,
): Promise<DocumentMembers> {
  await ownerOnly(ctx, userId, folderId);
  const [rows, plan] = await Promise.all([listFolderMembers(ctx.db, folderId), getUserPlan(ctx.db, userId)]);
  return { members: rows.map(presentMember), limit: peopleLimit(ctx, plan) };
}

/**
 * Invites an address to the folder: an account with that confirmed address becomes a member at once; any other
 * address gets an invitation mail and becomes a member when it signs up (or confirms). 409 when the address is
 * already on the folder, 403 `plan_limit` beyond the owner's plan.
 */
export async function inviteFolderMember(
  ctx: PeopleContext,
  userId: string,
  folderId: string,
  input: InviteMember,
): Promise<DocumentMember> {
  const folder = await ownerOnly(ctx, userId, folderId);
  const email = input.email;
  const account = await findConfirmedUser(ctx.db, email);
  if (account?.id === userId) throw badRequest('You own this folder already', 'member_is_owner');
  const created = await ctx.db.transaction(async (tx) => {
    const limit = limitsEnforced(ctx.config) ? peopleLimit(ctx, await lockPlanOf(tx, userId)) : null;
    if (limit !== null && (await countFolderMembers(tx, folderId)) >= limit) {
      throw new AppError(
        403,
        'plan_limit',
        `Your plan lets ${limit} people work in a folder. Upgrade your plan to invite more.`,
        { limit, upgradeUrl: '/#pricing' },
      );
    }
    return insertFolderMember(tx, {
      folderId,
      userId: account?.id ?? null,
      email,
      role: input.role,
      invitedBy: userId,
    });
  });
  if (!created) throw conflict('This person is already on the folder', 'member_exists');
  if (account) {
    // An open document under the folder may now be an editor's; their connections learn it at once.
    await announce(
      ctx,
      userId,
      folder.folders.map((f) => f.id),
    );
  } else {
    const inviter = await findUserName(ctx.db, userId);
    // The app's front page, where the address signs up: the invitation is taken up when it is confirmed.
    ctx.mailer.send(
      folderInvitationMail(email, inviter, folder.name, ROLE_TEXT[input.role], `${ctx.config.APP_URL}/`),
    );
  }
  const member = (await listFolderMembers(ctx.db, folderId)).find((row) => row.id === created.id);
  if (!member) throw notFound('Member not found');
  return presentMember(member);
}

export async function changeFolderMemberRole(
  ctx: PeopleContext,
  userId: string,
  folderId: string,
  memberId: string,
  role: MemberRole,
): Promise<DocumentMember> {
  const folder = await ownerOnly(ctx, userId, folderId);
  if (!(await updateFolderMemberRole(ctx.db, folderId, memberId, role))) throw notFound('Member not found');
  await announce(
    ctx,
    userId,
    folder.folders.map((f) => f.id),
  );
  const member = (await listFolderMembers(ctx.db, folderId)).find((row) => row.id === memberId);
  if (!member) throw notFound('Member not found');
  return presentMember(member);
}

export async function removeFolderMember(
  ctx: PeopleContext,
  userId: string,
  folderId: string,
  memberId: string,
): Promise<void> {
  const folder = await ownerOnly(ctx, userId, folderId);
  if (!(await deleteFolderMember(ctx.db, folderId, memberId))) throw notFound('Member not found');
  await announce(
    ctx,
    userId,
    folder.folders.map((f) => f.id),
  );
}
