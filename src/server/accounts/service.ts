import type { ServerDependencies } from '../dependencies';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type {
  EmailTokenType,
  PasswordGrantBody,
  Session,
  SignUpBody,
  SignUpResponse,
  UpdateUserBody,
  User,
  VerifyBody,
} from '../../shared/schemas/auth';
import { WEAK_PASSWORD_REASONS } from '../../shared/schemas/auth';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { emailTokens, sessions, users } from '../db/schema';
import { badRequest, forbidden, unauthorized, unprocessable } from '../errors';
import {
  emailChangeMail,
  emailChangeNoticeMail,
  existingAccountMail,
  recoveryMail,
  signupMail,
} from '../mail';
import { promoteAdminEmail } from './instance-claim';
import {
  burnPasswordCheck,
  hashPassword,
  needsRehash,
  passwordWeaknesses,
  verifyPassword,
} from './passwords';
import { startSession } from './sessions';
import { beforePasswordCheck, recordFailedSignIn, recordSuccessfulSignIn } from './sign-in-throttle';
import { forgetActiveSessions, hashToken, randomToken } from '../plugins';
import { presentUser, type UserRow } from './users';

/** Lifetimes of e-mailed one-time links. */
const EMAIL_TOKEN_TTL_SECONDS: Record<EmailTokenType, number> = {
  recovery: 60 * 60,
  signup: 24 * 60 * 60,
  email_change: 24 * 60 * 60,
};

export type AccountsContext = Pick<ServerDependencies, 'db' | 'config' | 'mailer'>;

/** Who is asking: the client IP (sign-in throttle) and User-Agent (the sessions list's device name). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/**
 * Changing the password or the e-mail needs the current password, unless the session itself signed in this
 * recently (a password sign-in, or a recovery link that was just followed).
 */
const REAUTHENTICATION_WINDOW_MS = 5 * 60_000;

const invalidCredentials = () => badRequest('Invalid login credentials', 'invalid_credentials');
const emailExists = () =>
  unprocessable('A user with this email address has already been registered', 'email_exists');

function assertStrongPassword(password: string, ...emails: string[]): void {
  const reasons = [...new Set(emails.flatMap((email) => passwordWeaknesses(password, email)))];
  if (reasons.length === 0) return;
  throw unprocessable(reasons.map((r) => WEAK_PASSWORD_REASONS[r]).join(' '), 'weak_password', { reasons });
}

/** PostgreSQL unique violation (23505), from pg or PGlite, possibly wrapped by Drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return user;
}

async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** A new one-time token for an e-mailed link; earlier unused tokens of the same type stop working. */
async function issueEmailToken(
  db: Db,
  userId: string,
  type: EmailTokenType,
  newEmail: string | null = null,
): Promise<string> {
  const token = randomToken();
  await db.transaction(async (tx) => {
    await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.type, type), isNull(emailTokens.usedAt)));
    await tx.insert(emailTokens).values({
      userId,
      type,
      tokenHash: hashToken(token),
      newEmail,
      expiresAt: new Date(Date.now() + EMAIL_TOKEN_TTL_SECONDS[type] * 1000),
    });
  });
  return token;
}

function recoveryLink(config: Config, token: string): string {
  return `${config.APP_URL}/reset-password?token=${encodeURIComponent(token)}`;
}

function confirmLink(config: Config, token: string, type: 'signup' | 'email_change'): string {
  return `${config.APP_URL}/auth/confirm?token=${encodeURIComponent(token)}&type=${type}`;
}

async function sendSignupConfirmation(ctx: AccountsContext, user: UserRow): Promise<void> {
  const token = await issueEmailToken(ctx.db, user.id, 'signup');
  ctx.mailer.send(
    signupMail(user.email, confirmLink(ctx.config, token, 'signup'), EMAIL_TOKEN_TTL_SECONDS.signup / 3600),
  );
}

/**
 * Creates an account. With SMTP the e-mail must be confirmed first (session null); without it the account
 * is confirmed at once and signed in.
 */
export async function signUp(
  ctx: AccountsContext,
  body: SignUpBody,
  client: ClientInfo,
): Promise<SignUpResponse> {
  assertStrongPassword(body.password, body.email);
  const requireConfirmation = ctx.mailer.delivers;
  const passwordHash = await hashPassword(body.password);
  const [user] = await ctx.db
    .insert(users)
    .values({
      email: body.email,
      passwordHash,
      fullName: body.data?.full_name ?? '',
      emailConfirmedAt: requireConfirmation ? null : new Date(),
      // Without mail the address is confirmed at once; with mail ADMIN_EMAIL applies once it is confirmed.
      role: !requireConfirmation && body.email === ctx.config.ADMIN_EMAIL ? 'admin' : 'member',
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (!user) {
    // With mail, sign-up answers alike whether or not the address is registered (no enumeration): the
    // owner gets a mail instead. Without mail there is no channel to the owner, and nothing to confirm.
    if (!requireConfirmation) throw unprocessable('User already registered', 'user_already_exists');
    return { user: await notifyExistingAccount(ctx, body), session: null };
  }
  if (requireConfirmation) {
    await sendSignupConfirmation(ctx, user);
    return { user: presentUser(user), session: null };
  }
  return { user: presentUser(user), session: await startSession(ctx, user, client.userAgent) };
}

async function notifyExistingAccount(ctx: AccountsContext, body: SignUpBody): Promise<User> {
  const existing = await findUserByEmail(ctx.db, body.email);
  if (existing) {
    const token = await issueEmailToken(ctx.db, existing.id, 'recovery');
    ctx.mailer.send(
      existingAccountMail(
        existing.email,
        recoveryLink(ctx.config, token),
        EMAIL_TOKEN_TTL_SECONDS.recovery / 60,
      ),
    );
  }
  // The same shape a new, unconfirmed account gets; the id belongs to no one.
  return {
    id: randomUUID(),
    email: body.email,
    user_metadata: { full_name: body.data?.full_name ?? '' },
    created_at: new Date().toISOString(),
    email_confirmed_at: null,
    role: 'member',
  };
}

/**
 * Password sign-in. Unknown e-mail and wrong password answer alike, in about the same time, and both count as
 * failures of the sign-in throttle (429 for this e-mail from this IP after too many).
 */
export async function signInWithPassword(
  ctx: AccountsContext,
  body: PasswordGrantBody,
  client: ClientInfo,
): Promise<Session> {
  await beforePasswordCheck(ctx.db, body.email, client.ip);
  const user = await findUserByEmail(ctx.db, body.email);
  if (!user) {
    await burnPasswordCheck(body.password);
    await recordFailedSignIn(ctx.db, body.email, client.ip);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    await recordFailedSignIn(ctx.db, body.email, client.ip);
    throw invalidCredentials();
  }
  await recordSuccessfulSignIn(ctx.db, body.email, client.ip);
  // Only required while mail can actually reach the user; a self-hoster who removes SMTP can still sign in.
  if (!user.emailConfirmedAt && ctx.mailer.delivers)
    throw badRequest('Email not confirmed', 'email_not_confirmed');
  if (needsRehash(user.passwordHash)) {
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(body.password) })
      .where(eq(users.id, user.id));
  }
  return startSession(ctx, user, client.userAgent);
}

/** Sends a reset link if the account exists. Callers answer `{}` either way. */
export async function requestRecovery(ctx: AccountsContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = await issueEmailToken(ctx.db, user.id, 'recovery');
  ctx.mailer.send(
    recoveryMail(user.email, recoveryLink(ctx.config, token), EMAIL_TOKEN_TTL_SECONDS.recovery / 60),
  );
}

/** Sends a new sign-up confirmation to an unconfirmed account (with SMTP). Callers answer `{}` either way. */
export async function resendSignupConfirmation(ctx: AccountsContext, email: string): Promise<void> {
  if (!ctx.mailer.delivers) return;
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.emailConfirmedAt) return;
  await sendSignupConfirmation(ctx, user);
}

/** Redeems an e-mailed one-time token and signs the user in. 403 otp_expired when invalid, used or expired. */
export async function verifyEmailToken(
  ctx: AccountsContext,
  body: VerifyBody,
  client: ClientInfo,
): Promise<Session> {
  const now = new Date();
  // Claiming the token is one statement, so a link can be redeemed exactly once even under concurrency.
  const [claimed] = await ctx.db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(body.token)),
        eq(emailTokens.type, body.type),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailTokens.userId, newEmail: emailTokens.newEmail });
  if (!claimed) throw forbidden('Email link is invalid or has expired', 'otp_expired');

  let user: UserRow | undefined;
  if (body.type === 'email_change') {
    if (!claimed.newEmail) throw forbidden('Email link is invalid or has expired', 'otp_expired');
    try {
      [user] = await ctx.db
        .update(users)
        .set({ email: claimed.newEmail, emailConfirmedAt: now, updatedAt: now })
        .where(eq(users.id, claimed.userId))
        .returning();
    } catch (error) {
      if (isUniqueViolation(error)) throw emailExists();
      throw error;
    }
  } else {
    // Following a sign-up or a recovery link proves the address belongs to the user.
    [user] = await ctx.db
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())` })
      .where(eq(users.id, claimed.userId))
      .returning();
  }
  if (!user) throw forbidden('Email link is invalid or has expired', 'otp_expired');
  if (await promoteAdminEmail(ctx.db, ctx.config, user)) user = { ...user, role: 'admin' };
  return startSession(ctx, user, client.userAgent);
}

export async function getUser(ctx: Pick<AccountsContext, 'db'>, userId: string): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized('User from sub claim in JWT does not exist', 'user_not_found');
  return presentUser(user);
}

/**
 * Asks for proof that the account's owner is at the keyboard before the password or e-mail changes: the
 * current password, or a sign-in of this very session within REAUTHENTICATION_WINDOW_MS. A wrong current
 * password counts as a failed sign-in (so a stolen token cannot be used to guess it).
 */
async function requireReauthentication(
  ctx: AccountsContext,
  principal: { sessionId: string },
  user: UserRow,
  currentPassword: string | undefined,
  client: ClientInfo,
): Promise<void> {
  if (currentPassword !== undefined) {
    await beforePasswordCheck(ctx.db, user.email, client.ip);
    if (await verifyPassword(user.passwordHash, currentPassword)) return;
    await recordFailedSignIn(ctx.db, user.email, client.ip);
    throw badRequest('Current password is incorrect.', 'invalid_credentials');
  }
  const [session] = await ctx.db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.id, principal.sessionId))
    .limit(1);
  if (session && Date.now() - session.createdAt.getTime() < REAUTHENTICATION_WINDOW_MS) return;
  throw unauthorized(
    'Enter your current password to change your password or e-mail.',
    'reauthentication_needed',
  );
}

/**
 * Changes name, password and/or e-mail of the signed-in user; password and e-mail need re-authentication.
 * A new password keeps this session and ends the user's others. A new e-mail applies only when the link sent
 * to it is followed (with or without SMTP: without it the mail goes to the outbox), and the current address
 * is told about the request at once.
 */
export async function updateUser(
  ctx: AccountsContext,
  principal: { userId: string; sessionId: string },
  body: UpdateUserBody,
  client: ClientInfo,
): Promise<User> {
  const user = await findUserById(ctx.db, principal.userId);
  if (!user) throw unauthorized('User from sub claim in JWT does not exist', 'user_not_found');
  const changes: Partial<typeof users.$inferInsert> = {};

  const newEmail = body.email !== undefined && body.email !== user.email ? body.email : undefined;
  if (body.password !== undefined || newEmail) {
    await requireReauthentication(ctx, principal, user, body.current_password, client);
  }
  if (body.password !== undefined) {
    assertStrongPassword(body.password, user.email, ...(newEmail ? [newEmail] : []));
    if (await verifyPassword(user.passwordHash, body.password)) {
      throw unprocessable('New password should be different from the old password.', 'same_password');
    }
    changes.passwordHash = await hashPassword(body.password);
  }
  if (body.data?.full_name !== undefined) changes.fullName = body.data.full_name;

  if (newEmail) {
    const [taken] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, newEmail), ne(users.id, user.id)))
      .limit(1);
    if (taken) throw emailExists();
  }

  let updated = user;
  if (Object.keys(changes).length > 0) {
    const [row] = await ctx.db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    if (row) updated = row;
  }
  if (changes.passwordHash) {
    // Whoever else holds a session (a thief, or a forgotten device) is signed out by a password change; the
    // session that made the change stays, as people expect from other services.
    await ctx.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(sessions.userId, user.id), ne(sessions.id, principal.sessionId), isNull(sessions.revokedAt)),
      );
    forgetActiveSessions(ctx.db);
  }
  if (newEmail) {
    const token = await issueEmailToken(ctx.db, user.id, 'email_change', newEmail);
    ctx.mailer.send(
      emailChangeMail(
        newEmail,
        confirmLink(ctx.config, token, 'email_change'),
        EMAIL_TOKEN_TTL_SECONDS.email_change / 3600,
      ),
    );
    const recoveryToken = await issueEmailToken(ctx.db, user.id, 'recovery');
    ctx.mailer.send(
      emailChangeNoticeMail(
        user.email,
        newEmail,
        recoveryLink(ctx.config, recoveryToken),
        EMAIL_TOKEN_TTL_SECONDS.recovery / 60,
      ),
    );
  }
  return presentUser(updated);
}
