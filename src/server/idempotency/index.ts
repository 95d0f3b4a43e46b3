/** What other folders may use from idempotency: the hooks (app.ts) and the routes they cover (the OpenAPI document). */
export { IDEMPOTENT_ROUTES, registerIdempotency } from './plugin';
