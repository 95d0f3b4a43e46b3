/** What other folders may use from accounts; everything else in the folder is its own business. */
export { authRoutes } from './routes';
export { requireAdmin, roleOf, setRole } from './roles';
export { printedSetupCode } from './setup-code-log';
