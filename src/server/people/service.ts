import type { ServerDependencies } from '../dependencies';
import { getUserPlan, limitsEnforced } from '../billing';
import {
  authorizeDocument,
  documentRole,
  getDocument,
  isMemberRole,
  listSharedWith,
  strongestRole,
} from '../documents';
import { AppError, badRequest, conflict, notFound } from '../errors';
import { invitationMail } from '../mail';
import { planById, isPlanId } from '../../shared/plans';
import type {
  DocumentMember,
  DocumentMembers,
  InviteMember,
  MemberDocument,
  MemberRole,
  SharedWithMeDocument,
} from '../../shared/schemas/people';
import {
  countMembers,
  deleteMember,
  findConfirmedUser,
  findUserName,
  insertMember,
  listMembers,
  lockPlanOf,
  updateMemberRole,
  type MemberRecord,
} from './repository';

/**
 * People on a document: the owner invites an address with a role, changes it, removes it; a member finds the
 * documents shared with them. What a role allows is the documents policy's (documents/policy.ts); a change
 * here is announced as `access.changed`, and live connections are re-decided at once.
 */

export type PeopleContext = Pick<
  ServerDependencies,
  'db' | 'config' | 'mailer' | 'documentEvents' | 'documentWriter'
>;

/** What the invitation mail says the role lets the person do. */
const ROLE_TEXT: Record<MemberRole, string> = {
  viewer: 'can read it',
  commenter: 'can read it and comment on it',
  suggester: 'can suggest changes to it',
  editor: 'can edit it',
};

export function presentMember(row: MemberRecord): DocumentMember {
  return {
    id: row.id,
    email: row.email,
    name: row.acceptedAt ? row.name || row.email : null,
    role: row.role,
    invitedAt: row.invitedAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
  };
}

/** How many people one document of this owner may have; null when no limit applies on this server. */
function peopleLimit(ctx: PeopleContext, plan: string | undefined): number | null {
  if (!limitsEnforced(ctx.config)) return null;
  return planById(plan && isPlanId(plan) ? plan : 'gratis').limits.peoplePerDocument;
}

const ownerOnly = (ctx: PeopleContext, userId: string, documentId: string) =>
  authorizeDocument({ db: ctx.db }, { kind: 'user', userId }, documentId, 'manageMembers');

export async function getMembers(
  ctx: PeopleContext,
  userId: string,
  documentId: string,
): Promise<DocumentMembers> {
  await ownerOnly(ctx, userId, documentId);
  const [rows, plan] = await Promise.all([listMembers(ctx.db, documentId), getUserPlan(ctx.db, userId)]);
  return { members: rows.map(presentMember), limit: peopleLimit(ctx, plan) };
}

/**
 * Invites an address: an account with that confirmed address becomes a member at once; any other address gets
 * an invitation mail and becomes a member when it signs up (or confirms). 409 when the address is already on the
 * document, 403 `plan_limit` beyond the owner's plan.
 */
export async function inviteMember(
  ctx: PeopleContext,
  userId: string,
  documentId: string,
  input: InviteMember,
): Promise<DocumentMember> {
  await ownerOnly(ctx, userId, documentId);
  const email = input.email;
  const account = await findConfirmedUser(ctx.db, email);
  if (account?.id === userId) throw badRequest('You own this document already', 'member_is_owner');
  const created = await ctx.db.transaction(async (tx) => {
    const limit = limitsEnforced(ctx.config) ? peopleLimit(ctx, await lockPlanOf(tx, userId)) : null;
    if (limit !== null && (await countMembers(tx, documentId)) >= limit) {
      throw new AppError(
        403,
        'plan_limit',
        `Your plan lets ${limit} people work on a document. Upgrade your plan to invite more.`,
        { limit, upgradeUrl: '/#pricing' },
      );
    }
    return insertMember(tx, {
      documentId,
      userId: account?.id ?? null,
      email,
      role: input.role,
      invitedBy: userId,
    });
  });
  if (!created) throw conflict('This person is already on the document', 'member_exists');
  if (!account) {
    const [inviter, document] = await Promise.all([
      findUserName(ctx.db, userId),
      getDocument(ctx, userId, documentId),
    ]);
    // The app's front page, where the address signs up: the invitation is taken up when it is confirmed.
    const link = `${ctx.config.APP_URL}/`;
    ctx.mailer.send(invitationMail(email, inviter, document.title, ROLE_TEXT[input.role], link));
  }
  const member = (await listMembers(ctx.db, documentId)).find((row) => row.id === created.id);
  if (!member) throw notFound('Member not found');
  return presentMember(member);
}

export async function changeMemberRole(
  ctx: PeopleContext,
  userId: string,
  documentId: string,
  memberId: string,
  role: MemberRole,
): Promise<DocumentMember> {
  await ownerOnly(ctx, userId, documentId);
  if (!(await updateMemberRole(ctx.db, documentId, memberId, role))) throw notFound('Member not found');
  await ctx.documentEvents.publish({ type: 'access.changed', documentId });
  const member = (await listMembers(ctx.db, documentId)).find((row) => row.id === memberId);
  if (!member) throw notFound('Member not found');
  return presentMember(member);
}

export async function removeMember(
  ctx: PeopleContext,
  userId: string,
  documentId: string,
  memberId: string,
): Promise<void> {
  await ownerOnly(ctx, userId, documentId);
  if (!(await deleteMember(ctx.db, documentId, memberId))) throw notFound('Member not found');
  await ctx.documentEvents.publish({ type: 'access.changed', documentId });
}

function presentShared(
  row: Awaited<ReturnType<typeof listSharedWith>>[number],
): SharedWithMeDocument | undefined {
  const role = strongestRole(row.roles.filter(isMemberRole));
  if (!role) return undefined;
  return {
    id: row.id,
    title: row.title,
    role,
    ownerName: row.ownerName || row.ownerEmail,
    updatedAt: row.updatedAt.toISOString(),
    folder: row.folder,
  };
}

/** The documents others shared with the user, most recently updated first. */
export async function sharedWithMe(ctx: PeopleContext, userId: string): Promise<SharedWithMeDocument[]> {
  return (await listSharedWith(ctx.db, userId)).flatMap((row) => presentShared(row) ?? []);
}

/** One document as its member opens it (their role decides what the page offers); the owner's own too. */
export async function openAsMember(
  ctx: PeopleContext,
  userId: string,
  documentId: string,
): Promise<MemberDocument> {
  const role = await documentRole({ db: ctx.db }, { kind: 'user', userId }, documentId);
  if (!role) throw notFound('Document not found');
  const document = await getDocument(ctx, userId, documentId);
  if (role === 'owner') {
    return {
      id: document.id,
      title: document.title,
      role,
      ownerName: await findUserName(ctx.db, userId),
      content: document.content,
      updatedAt: document.updatedAt.toISOString(),
    };
  }
  const [row] = await listSharedWith(ctx.db, userId, documentId);
  const shared = row && presentShared(row);
  if (!shared) throw notFound('Document not found');
  // The role the policy decided just now, which the list's strongest role is built to agree with.
  return { ...shared, role, content: document.content };
}
