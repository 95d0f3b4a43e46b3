import type { FastifyPluginAsync } from 'fastify';
import {
  logoutQuerySchema,
  passwordGrantBodySchema,
  recoverBodySchema,
  refreshGrantBodySchema,
  resendBodySchema,
  signUpBodySchema,
  tokenQuerySchema,
  updateUserBodySchema,
  verifyBodySchema,
} from '../../shared/schemas/auth';
import { requireUser } from '../plugins/auth';
import {
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
  PASSWORD_SIGN_IN_PER_EMAIL,
  SIGNUP_PER_IP,
  USER_UPDATE_PER_IP,
  VERIFY_PER_IP,
  perEmail,
  perIp,
  perIpByGrant,
} from './rate-limits';

/** /api/auth: accounts and sessions (issue 2's contract; see docs/accounts.md). */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;

  const limitSignInPerEmail = perEmail(app, PASSWORD_SIGN_IN_PER_EMAIL);
  const limitMailPerEmail = perEmail(app, MAIL_REQUEST_PER_EMAIL);

  app.post('/signup', { config: perIp(SIGNUP_PER_IP) }, async (request) => {
    const body = parseInput(signUpBodySchema, request.body);
    return signUp(ctx, body);
  });

  app.post('/token', { config: perIpByGrant() }, async (request, reply) => {
    const { grant_type } = parseInput(tokenQuerySchema, request.query);
    if (grant_type === 'password') {
      await limitSignInPerEmail(request, reply);
      const body = parseInput(passwordGrantBodySchema, request.body);
      return signInWithPassword(ctx, body);
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
    return verifyEmailToken(ctx, body);
  });

  app.get('/user', async (request) => {
    const principal = await requireUser(request);
    return getUser(ctx, principal.userId);
  });

  app.put('/user', { config: perIp(USER_UPDATE_PER_IP) }, async (request) => {
    const principal = await requireUser(request);
    const body = parseInput(updateUserBodySchema, request.body);
    return updateUser(ctx, principal, body);
  });
};
