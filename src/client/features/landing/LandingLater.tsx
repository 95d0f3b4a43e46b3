import { useEffect, useRef } from 'react';
import { CallToAction } from './CallToAction';
import { GetStarted } from './GetStarted';
import { hashTarget } from './hash-target';
import { Integrations } from './Integrations';
import { Pricing } from './Pricing';

export { LandingFooter } from './LandingFooter';

/**
 * The sections after the feature tour (LandingPage.tsx loads them as it mounts). A #fragment that names one of
 * them (`/#pricing`, or "See pricing" clicked before they arrived) had nothing to jump to until now.
 */
export function LaterSections() {
  const sections = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = hashTarget();
    if (target && sections.current?.contains(target)) target.scrollIntoView();
  }, []);
  return (
    <div ref={sections} className="contents">
      <CallToAction />
      <Integrations />
      <GetStarted />
      <Pricing />
    </div>
  );
}
