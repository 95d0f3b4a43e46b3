import { useEffect } from 'react';
import { useAuth } from '@client/features/auth';
import { useUserSettings } from './queries';
import { useTheme } from './theme';

/**
 * Applies the signed-in user's saved theme app-wide (and caches it for the pre-paint script), so a preference
 * saved in another browser follows the user. Renders nothing.
 */
export function SettingsSync() {
  const { user } = useAuth();
  const { settings } = useUserSettings();
  const { setTheme } = useTheme();
  const savedTheme = settings.updated_at ? settings.preferences.theme : null;

  useEffect(() => {
    if (user && savedTheme) setTheme(savedTheme);
  }, [user, savedTheme, setTheme]);

  return null;
}
