export { AuthLayout } from './AuthLayout';
export { AuthProvider, useAuth } from './AuthProvider';
export { AuthDialogProvider, useAuthDialog } from './auth-dialog';
export {
  claimInstanceRequest,
  listSessionsRequest,
  revokeSessionRequest,
  SESSIONS_PATH,
  SETUP_PATH,
  setupStatusRequest,
  signOutRequest,
  type SessionSummary,
} from './api';
export type { AuthUser } from './types';
