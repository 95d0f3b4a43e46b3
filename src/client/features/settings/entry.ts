// For the app's shell only: the theme every page renders inside, and the saved-settings sync that signed-in
// writers run beside the pages. Kept apart from index.ts so the app's first chunk holds the theme and nothing
// else of settings.
import { lazy } from 'react';

export { ThemeProvider } from './theme';

/**
 * Applies a signed-in writer's saved settings (SettingsSync.tsx) inside the query provider. Its code loads when
 * it first renders, so visitors never download it.
 */
export const LazySettingsSync = lazy(async () => {
  const [{ SettingsSync }, { withQueries }] = await Promise.all([
    import('./SettingsSync'),
    import('@client/lib/with-queries'),
  ]);
  return { default: withQueries(SettingsSync) };
});
