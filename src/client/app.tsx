import { Suspense } from 'react';
import { LazyToaster } from '@client/components/ui/lazy-toaster';
import { AuthDialogProvider, AuthProvider, useAuth } from '@client/features/auth';
import { LazySettingsSync, ThemeProvider } from '@client/features/settings/entry';
import { AppRoutes } from './routes';

// Only signed-in users have saved settings to apply; visitors never download this.
function SignedInSettingsSync() {
  const { user } = useAuth();
  return user ? (
    <Suspense fallback={null}>
      <LazySettingsSync />
    </Suspense>
  ) : null;
}

/**
 * Providers and routes. TanStack Query's provider comes with the pages that read server data (routes.tsx), not
 * here, so the landing page does not download it. Tooltips get their provider where they are used (components/ui/tooltip.tsx); the toast
 * UI is mounted on the first toast (components/ui/lazy-toaster.tsx): both keep the landing page's first bundle
 * small.
 */
export function App() {
  return (
    <ThemeProvider>
      <AuthProvider>
        <SignedInSettingsSync />
        <AuthDialogProvider>
          <AppRoutes />
          <LazyToaster />
        </AuthDialogProvider>
      </AuthProvider>
    </ThemeProvider>
  );
}
