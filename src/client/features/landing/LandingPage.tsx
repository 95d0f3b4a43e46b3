import { Suspense, useEffect } from 'react';
import { lazyOnDemand, onDemand } from '@client/lib/on-demand';
import { Features } from './Features';
import { hashTarget } from './hash-target';
import { Hero } from './Hero';
import { LandingHeader } from './LandingHeader';
import { DemoMotionProvider } from './motion';

// What comes after the feature tour is far below the first screen at every width: it is a chunk of its own, so the
// JavaScript the page needs first holds none of it (bench:web). A visitor's first paint comes from the HTML written
// at build time, which holds the whole page; main.tsx brings this chunk before the app's first render too
// (preloadLaterSections), so that render is the same markup. Anywhere else it is fetched as the page renders, and
// nothing above it moves when it arrives.
const laterSections = onDemand(async () => (await import('./LandingLater')).LaterSections);
const landingFooter = onDemand(async () => (await import('./LandingLater')).LandingFooter);
const LaterSections = lazyOnDemand(laterSections);
const LandingFooter = lazyOnDemand(landingFooter);

export async function preloadLaterSections(): Promise<void> {
  await Promise.all([laterSections.load(), landingFooter.load()]);
}

/** The marketing page signed-out visitors see at `/`. */
export function LandingPage() {
  // The later sections jump to their own targets when they arrive.
  useEffect(() => hashTarget()?.scrollIntoView(), []);
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
          <Suspense fallback={null}>
            <LaterSections />
          </Suspense>
        </main>
        <Suspense fallback={null}>
          <LandingFooter />
        </Suspense>
      </div>
    </DemoMotionProvider>
  );
}
