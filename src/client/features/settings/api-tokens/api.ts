import type {
  ApiTokenCreate,
  ApiTokenCreated,
  ApiTokenList,
  ApiTokenSettings,
} from '@shared/schemas/api-tokens';
import type { ConnectedAppList } from '@shared/schemas/oauth';
import { apiRequest } from '@client/lib/api';

export const API_TOKENS_PATH = '/api/me/api-tokens';
const API_TOKEN_SETTINGS_PATH = '/api/admin/api-tokens';

export const listApiTokens = () => apiRequest<ApiTokenList>('GET', API_TOKENS_PATH);
export const createApiToken = (input: ApiTokenCreate) =>
  apiRequest<ApiTokenCreated>('POST', API_TOKENS_PATH, input);
export const revokeApiToken = (id: string) =>
  apiRequest<null>('DELETE', `${API_TOKENS_PATH}/${encodeURIComponent(id)}`);
export const saveApiTokenSettings = (settings: ApiTokenSettings) =>
  apiRequest<ApiTokenSettings>('PUT', API_TOKEN_SETTINGS_PATH, settings);

export const CONNECTED_APPS_PATH = '/api/me/connected-apps';
export const listConnectedApps = () => apiRequest<ConnectedAppList>('GET', CONNECTED_APPS_PATH);
export const disconnectApp = (id: string) =>
  apiRequest<null>('DELETE', `${CONNECTED_APPS_PATH}/${encodeURIComponent(id)}`);
