/**
 * What other folders may use from plugins: the session check every route uses (and the socket, and the
 * statements that check it inline), and the access tokens and session cache it is built on (accounts signs
 * the tokens and ends sessions through them).
 */
export {
  apiTokenSecret,
  authenticateToken,
  isSessionSignedIn,
  requireTokenClaims,
  requireUser,
  sessionSignedInExists,
  signedInSessions,
} from './auth';
export type { Principal } from './auth';
export { forgetActiveSessions } from './session-cache';
export { hashToken, randomToken, signAccessToken } from './tokens';
