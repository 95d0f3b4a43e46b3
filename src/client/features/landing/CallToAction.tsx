import { ArrowRight } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { useAuthDialog } from '@client/features/auth';

export function CallToAction() {
  const { openAuthDialog } = useAuthDialog();
  return (
    <section aria-labelledby="cta-title" className="py-20 sm:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="relative overflow-hidden rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl sm:px-12">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(50%_80%_at_80%_0%,color-mix(in_oklch,var(--primary-foreground)_18%,transparent),transparent)]"
          />
          <h2 id="cta-title" className="relative text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Transform Your Writing Today
          </h2>
          <p className="relative mx-auto mt-4 max-w-xl text-lg opacity-90">
            Start on the free plan in under a minute. No credit card needed to start.
          </p>
          <Button
            size="lg"
            variant="secondary"
            className="relative mt-8"
            onClick={() => openAuthDialog('signup')}
          >
            Start Writing for Free
            <ArrowRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </section>
  );
}
