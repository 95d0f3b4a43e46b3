import { useEffect } from 'react';
import { CallToAction } from './CallToAction';
import { Features } from './Features';
import { GetStarted } from './GetStarted';
import { Hero } from './Hero';
import { Integrations } from './Integrations';
import { LandingFooter } from './LandingFooter';
import { LandingHeader } from './LandingHeader';
import { DemoMotionProvider } from './motion';
import { Pricing } from './Pricing';

/** The marketing page signed-out visitors see at `/` (SPEC §2, Landing page). */
export function LandingPage() {
  // The page is code-split, so the browser's own jump to a #fragment happened before it existed.
  useEffect(() => {
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
  return (
    <DemoMotionProvider>
      <div className="min-h-screen bg-background text-foreground">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>
        <LandingHeader />
        <main id="main" tabIndex={-1} className="outline-none">
          <Hero />
          <Features />
          <CallToAction />
          <Integrations />
          <GetStarted />
          <Pricing />
        </main>
        <LandingFooter />
      </div>
    </DemoMotionProvider>
  );
}
