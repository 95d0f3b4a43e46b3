import { z } from 'zod';
import { API_TOKEN_SCOPES } from './api-tokens';

/**
 * OAuth sign-in for MCP clients: the consent page's requests (`/api/oauth/authorize`) and the user's connected
 * apps (`/api/me/connected-apps`). The OAuth endpoints themselves (`/oauth/*`) speak OAuth's own form bodies.
 */

const param = z.string().max(4_000);

/** The authorization request as the client put it in the URL of `/oauth/authorize`, passed on by the page. */
export const oauthAuthorizeQuerySchema = z.object({
  response_type: param.optional(),
  client_id: param.optional(),
  redirect_uri: param.optional(),
  scope: param.optional(),
  state: param.optional(),
  code_challenge: param.optional(),
  code_challenge_method: param.optional(),
  resource: param.optional(),
});
export type OAuthAuthorizeQuery = z.infer<typeof oauthAuthorizeQuerySchema>;

/** What the consent page shows: who asks, where the answer goes, and what it may do. */
export const oauthConsentSchema = z.object({
  client_name: z.string(),
  redirect_host: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
});
export type OAuthConsent = z.infer<typeof oauthConsentSchema>;

/**
 * The user's answer: the request again, whether they allow it and, when they unticked some, the scopes they grant
 * (some of those asked; absent: all of them).
 */
export const oauthDecisionSchema = oauthAuthorizeQuerySchema.extend({
  allow: z.boolean(),
  granted_scopes: z.array(z.enum(API_TOKEN_SCOPES)).max(API_TOKEN_SCOPES.length).optional(),
});
export type OAuthDecision = z.infer<typeof oauthDecisionSchema>;

/** Where the browser goes next: the client's redirect URI with `code` and `state`, or with `error`. */
export const oauthDecisionResultSchema = z.object({ redirect_to: z.string() });
export type OAuthDecisionResult = z.infer<typeof oauthDecisionResultSchema>;

const connectedAppSchema = z.object({
  id: z.uuid(),
  client_name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
});
export type ConnectedApp = z.infer<typeof connectedAppSchema>;

/** `GET /api/me/connected-apps`: the apps the user let in by OAuth, newest first. */
export const connectedAppListSchema = z.object({ apps: z.array(connectedAppSchema) });
export type ConnectedAppList = z.infer<typeof connectedAppListSchema>;
