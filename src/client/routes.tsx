import { Suspense, useSyncExternalStore, type ComponentType } from 'react';
import { Route, Switch } from 'wouter';
import {
  PAGE_LOADING_CLASS,
  PAGE_LOADING_LABEL,
  PAGE_LOADING_SPINNER_CLASS,
} from '@client/components/page-loading';
import { useAuth } from '@client/features/auth';
import { getSession } from '@client/lib/session-store';
import { documentQueryKey } from '@client/features/documents';
import { EDITOR_PATH } from '@shared/first-paint';
import { readCopyEarly, requestServerStateEarly } from '@client/features/editor/entry';
import { lazyOnDemand, onDemand, pageOnDemand, type OnDemand } from '@client/lib/on-demand';

/**
 * Loads a page from a module's named export when its route is first shown, so each route is its own chunk,
 * inside the query provider (lib/with-queries.tsx), which loads alongside. The module is the feature's page
 * (`features/<area>/<Name>Page.tsx`), not its index.ts: a dynamic import of an index would bring all of it.
 */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K): ComponentType {
  return pageOnDemand(pageCode(load, name), PageFallback);
}

/** A page's code, from a module's named export, wrapped in the query provider. */
function pageCode<M, K extends keyof M>(load: () => Promise<M>, name: K): OnDemand<object> {
  return onDemand(async () => {
    const [module, { withQueries }] = await Promise.all([load(), import('./lib/with-queries')]);
    return withQueries(module[name] as ComponentType);
  });
}

// The landing page reads no server data for visitors: no query provider, so no TanStack Query in its bundle.
const loadLanding = () => import('./features/landing/LandingPage');
const landingPage = onDemand(async () => (await loadLanding()).LandingPage);
const LandingPage = lazyOnDemand(landingPage);

/**
 * Brings the landing page's code, all of it, before the first render (main.tsx, for a visitor at `/`; index.html
 * preloads the chunks), so that render is the page the visitor already sees (the HTML written at build time:
 * scripts/vite-prerender-landing.ts) rather than a spinner or a page with parts still missing.
 */
export async function preloadLandingPage(): Promise<void> {
  const [, { preloadLaterSections }] = await Promise.all([landingPage.load(), loadLanding()]);
  await preloadLaterSections();
}
const DashboardPage = page(() => import('./features/dashboard/DashboardPage'), 'DashboardPage');
const editorPage = pageCode(() => import('./editor-page'), 'EditorPage');
const EditorPage = pageOnDemand(editorPage, PageFallback);
const SubscriptionSuccessPage = page(
  () => import('./features/billing/SubscriptionSuccessPage'),
  'SubscriptionSuccessPage',
);
const SubscriptionCancelPage = page(
  () => import('./features/billing/SubscriptionCancelPage'),
  'SubscriptionCancelPage',
);
const PrivacyPage = page(() => import('./features/legal/PrivacyPage'), 'PrivacyPage');
const TermsPage = page(() => import('./features/legal/TermsPage'), 'TermsPage');
const SharedDocumentPage = page(() => import('./features/sharing/SharedDocumentPage'), 'SharedDocumentPage');
const ResetPasswordPage = page(() => import('./features/auth/ResetPasswordPage'), 'ResetPasswordPage');
const ConfirmPage = page(() => import('./features/auth/ConfirmPage'), 'ConfirmPage');
const NotFoundPage = page(() => import('./features/misc/NotFoundPage'), 'NotFoundPage');
const StatusPage = page(() => import('./features/misc/StatusPage'), 'StatusPage');
const MemberDocumentPage = page(() => import('./features/people/MemberDocumentPage'), 'MemberDocumentPage');
const TrashPage = page(() => import('./features/dashboard/TrashPage'), 'TrashPage');
const ApiReferencePage = page(() => import('./features/misc/ApiReferencePage'), 'ApiReferencePage');
const OAuthConsentPage = page(() => import('./features/oauth/OAuthConsentPage'), 'OAuthConsentPage');

export function PageFallback() {
  return (
    <div className={PAGE_LOADING_CLASS} role="status" aria-live="polite">
      <span className={PAGE_LOADING_SPINNER_CLASS} />
      <span className="sr-only">{PAGE_LOADING_LABEL}</span>
    </div>
  );
}

const PRICING_HASH = '#pricing';

function subscribeToHash(onChange: () => void) {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/**
 * `/`: landing when signed out; dashboard when signed in and auth is not loading. A signed-in writer
 * sent to `/#pricing` ("View Plans Again", an upgrade link) sees the pricing section, where plan buttons
 * start checkout, rather than being bounced to the dashboard.
 */
function HomePage() {
  const { user, loading } = useAuth();
  const wantsPricing = useSyncExternalStore(subscribeToHash, () => window.location.hash === PRICING_HASH);
  if (loading) return <PageFallback />;
  return user && !wantsPricing ? <DashboardPage /> : <LandingPage />;
}

/**
 * The editor's document (its REST copy and the Yjs state the editor opens from) is asked for as the route
 * matches, in parallel with the editor's code and the auth check, instead of after both (on a novel-length
 * document, the largest responses of the page). Done while rendering: the editor page suspends, so no effect
 * below the Suspense boundary runs before its code is in. The query is the one the page reads; a failed or
 * unauthorized answer is asked again when the page mounts.
 */
function EditorRoute({ params }: { params: { id?: string } }) {
  if (params.id) startDocumentRequests(params.id);
  return <EditorPage />;
}

function startDocumentRequests(id: string) {
  if (!getSession()) return;
  void import('@client/lib/query-client').then(({ queryClient }) =>
    queryClient.prefetchQuery({ queryKey: documentQueryKey(id) }),
  );
  requestServerStateEarly(id);
  readCopyEarly(id);
}

/**
 * On the editor's route (main.tsx, for a signed-in writer): starts the document's requests, then waits for the
 * editor page's code (index.html preloads it, see scripts/vite-editor-html.ts), so the app's first render is the
 * editor page. Rendering first would draw the page's spinner, then the page in a second render once its code
 * is in: a spinner flashed for the time the last chunks take, and a render and commit more before the document.
 * Resolves false on any other path.
 */
export async function preloadEditorPage(path: string): Promise<boolean> {
  const match = EDITOR_PATH.exec(path);
  if (!match) return false;
  if (match[1]) startDocumentRequests(match[1]);
  await editorPage.load();
  return true;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        <Route path="/" component={HomePage} />
        <Route path="/editor/:id?" component={EditorRoute} />
        <Route path="/subscription-success" component={SubscriptionSuccessPage} />
        <Route path="/subscription-cancel" component={SubscriptionCancelPage} />
        <Route path="/privacy" component={PrivacyPage} />
        <Route path="/terms" component={TermsPage} />
        <Route path="/shared/:id" component={SharedDocumentPage} />
        <Route path="/shared-with-me/:id" component={MemberDocumentPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route path="/auth/confirm" component={ConfirmPage} />
        <Route path="/status" component={StatusPage} />
        <Route path="/trash" component={TrashPage} />
        <Route path="/docs/api" component={ApiReferencePage} />
        <Route path="/oauth/authorize" component={OAuthConsentPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
