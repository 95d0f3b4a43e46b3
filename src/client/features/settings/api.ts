import type { UpdateUserSettings, UserSettings } from '@shared/settings-defaults';
import { apiRequest } from '@client/lib/api';

export const SETTINGS_PATH = '/api/me/settings';

export function fetchUserSettings() {
  return apiRequest<UserSettings>('GET', SETTINGS_PATH);
}

export function saveUserSettings(update: UpdateUserSettings) {
  return apiRequest<UserSettings>('PUT', SETTINGS_PATH, update);
}
