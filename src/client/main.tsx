import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { getSession } from './features/auth/session-store';
import { preloadLandingPage } from './routes';
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

// A visitor at `/` gets the landing page: wait for its code (already downloading, see index.html) and paint it
// in the first frame. If it cannot be fetched, the page's own lazy loading shows the usual fallback.
if (window.location.pathname === '/' && !getSession())
  void preloadLandingPage()
    .catch(() => undefined)
    .then(render);
else render();
