import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { getSession } from './lib/session-store';
import { preloadEditorPage, preloadLandingPage } from './routes';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

function render() {
  createRoot(root!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

const path = window.location.pathname;
if (path === '/' && !getSession()) {
  // A visitor at `/` already sees the landing page: the server sent it as HTML (scripts/vite-prerender-landing.ts).
  // Wait for all of its code (already downloading, see index.html), so the app's first render is that same page,
  // and render it as a transition: React builds it in small slices, the page stays responsive to the visitor
  // meanwhile, and the HTML copy is swapped for the live page in one commit. If the code cannot be fetched, the
  // page's own lazy loading shows the usual fallback.
  void preloadLandingPage()
    .catch(() => undefined)
    .then(() => startTransition(render));
} else if (getSession()) {
  // A signed-in writer opening a document: the editor page's code first (routes.tsx, preloadEditorPage), so the
  // first render is that page. If it cannot be fetched, the page's own loading shows the usual fallback and error.
  void preloadEditorPage(path)
    .catch(() => undefined)
    .then(render);
} else {
  render();
}
