/** What other folders may use from api-tokens; everything else in the folder is its own business. */
export { apiTokenCheck, registerApiTokenGate, TOKEN_ROUTES } from './gate';
export { apiTokenRoutes } from './routes';
export { tokensEnabled } from './repository';
