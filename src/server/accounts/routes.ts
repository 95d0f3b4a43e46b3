import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  logoutQuerySchema,
  passwordGrantBodySchema,
  recoverBodySchema,
  refreshGrantBodySchema,
  resendBodySchema,
  sessionIdParamsSchema,
  setupCodeBodySchema,
  signUpBodySchema,
  tokenQuerySchema,
  updateUserBodySchema,
  verifyBodySchema,
} from '../../shared/schemas/auth';
import { requireUser } from '../plugins';
import { rememberSetupCode } from './setup-code-log';
import { instanceHasAdmin, prepareInstanceClaim, redeemSetupCode } from './instance-claim';
import { listSessions, revokeSession } from './session-list';
import { SignInLockedError } from './sign-in-throttle';
import {
  type ClientInfo,
  getUser,
  requestRecovery,
  resendSignupConfirmation,
  signInWithPassword,
  signUp,
  updateUser,
  verifyEmailToken,
} from './service';
import { refreshSession, revokeSessions } from './sessions';
import { parseInput } from '../validation';
import {
  MAIL_REQUEST_PER_EMAIL,
  MAIL_REQUEST_PER_IP,
  SETUP_CODE_PER_IP,
  SIGNUP_PER_IP,
  USER_UPDATE_PER_IP,
  VERIFY_PER_IP,
  perEmail,
  perIp,
  perIpByGrant,
} from './rate-limits';

function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

/** /api/auth: accounts and sessions (see docs/accounts.md). */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;

  const limitMailPerEmail = perEmail(app, MAIL_REQUEST_PER_EMAIL);

  // While nobody is admin, the log carries a one-time setup code that makes its holder the admin.
  const claim = await prepareInstanceClaim(ctx.db, ctx.config);
  if (!claim.hasAdmin) {
    rememberSetupCode(ctx.db, claim.setupCode);
    app.log.warn(
      { setupCode: claim.setupCode },
      `No admin yet: setup code ${claim.setupCode}. Sign up, then enter it in Account Settings → Profile to become the admin.`,
    );
  }

  app.post('/signup', { config: perIp(SIGNUP_PER_IP) }, async (request) => {
    const body = parseInput(signUpBodySchema, request.body);
    return signUp(ctx, body, clientOf(request));
  });

  app.post('/token', { config: perIpByGrant() }, async (request, reply) => {
    const { grant_type } = parseInput(tokenQuerySchema, request.query);
    if (grant_type === 'password') {
      const body = parseInput(passwordGrantBodySchema, request.body);
      try {
        return await signInWithPassword(ctx, body, clientOf(request));
      } catch (error) {
        if (error instanceof SignInLockedError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    }
    const body = parseInput(refreshGrantBodySchema, request.body);
    return refreshSession(ctx, body.refresh_token);
  });

  app.post('/logout', async (request, reply) => {
    const { scope } = parseInput(logoutQuerySchema, request.query);
    const principal = await requireUser(request);
    await revokeSessions(ctx.db, principal, scope);
    return reply.code(204).send();
  });

  // Always {}: the answer never tells whether an account exists.
  app.post('/recover', { config: perIp(MAIL_REQUEST_PER_IP) }, async (request, reply) => {
    await limitMailPerEmail(request, reply);
    const { email } = parseInput(recoverBodySchema, request.body);
    await requestRecovery(ctx, email);
    return {};
  });

  app.post('/resend', { config: perIp(MAIL_REQUEST_PER_IP) }, async (request, reply) => {
    await limitMailPerEmail(request, reply);
    const { email } = parseInput(resendBodySchema, request.body);
    await resendSignupConfirmation(ctx, email);
    return {};
  });

  app.post('/verify', { config: perIp(VERIFY_PER_IP) }, async (request) => {
    const body = parseInput(verifyBodySchema, request.body);
    return verifyEmailToken(ctx, body, clientOf(request));
  });

  app.get('/user', async (request) => {
    const principal = await requireUser(request);
    return getUser(ctx, principal.userId);
  });

  app.put('/user', { config: perIp(USER_UPDATE_PER_IP) }, async (request) => {
    const principal = await requireUser(request);
    const body = parseInput(updateUserBodySchema, request.body);
    return updateUser(ctx, principal, body, clientOf(request));
  });

  app.get('/sessions', async (request) => {
    const principal = await requireUser(request);
    return listSessions(ctx.db, principal);
  });

  /** Signs one of the user's own sessions out ("Sign out" in the sessions list). */
  app.delete('/sessions/:id', async (request, reply) => {
    const principal = await requireUser(request);
    const { id } = parseInput(sessionIdParamsSchema, request.params);
    await revokeSession(ctx.db, principal.userId, id);
    return reply.code(204).send();
  });

  /** Whether the instance still waits for its first admin (account settings then offers the setup code). */
  app.get('/setup', async (request) => {
    await requireUser(request);
    return { has_admin: await instanceHasAdmin(ctx.db) };
  });

  app.post('/setup', { config: perIp(SETUP_CODE_PER_IP) }, async (request) => {
    const principal = await requireUser(request);
    const { code } = parseInput(setupCodeBodySchema, request.body);
    await redeemSetupCode(ctx.db, principal.userId, code);
    return getUser(ctx, principal.userId);
  });
};
