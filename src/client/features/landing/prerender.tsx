import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { AuthDialogProvider, AuthProvider } from '@client/features/auth';
import { ThemeProvider } from '@client/features/settings';
import { LandingPage, preloadLaterSections } from './LandingPage';

/**
 * The landing page as HTML, rendered at build time (scripts/vite-prerender-landing.ts) for a visitor's first
 * paint. The providers are the app's own and every part of the page is loaded first, as main.tsx does for a
 * visitor at `/` before its first render, so the markup is what that render produces.
 */
export async function renderLandingPage(): Promise<string> {
  await preloadLaterSections();
  return renderToString(
    <Router ssrPath="/">
      <ThemeProvider>
        <AuthProvider>
          <AuthDialogProvider>
            <LandingPage />
          </AuthDialogProvider>
        </AuthProvider>
      </ThemeProvider>
    </Router>,
  );
}
