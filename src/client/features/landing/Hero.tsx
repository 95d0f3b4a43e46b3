import { ArrowRight, Check, Sparkles, Wand2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { TypingText } from './TypingText';
import { useAuthDialog } from '@client/features/auth';

export const HERO_TAGLINE = 'AI-powered writing that feels like your own thoughts.';

export function Hero() {
  const { openAuthDialog } = useAuthDialog();
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(60%_50%_at_50%_0%,color-mix(in_oklch,var(--primary)_16%,transparent),transparent)]"
      />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-16 pb-20 sm:px-6 md:pt-24 lg:grid-cols-[1.1fr_1fr] lg:gap-16">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1 text-sm text-muted-foreground shadow-xs">
            <Sparkles className="size-4 text-primary" aria-hidden="true" />
            <span>
              AI writing studio<span className="hidden sm:inline"> for writers, students and teams</span>
            </span>
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl"
          >
            The modern writer&rsquo;s workshop
          </h1>
          <p className="mt-4 text-2xl font-semibold tracking-tight text-primary sm:text-3xl">
            <TypingText text={HERO_TAGLINE} />
          </p>
          <p className="mx-auto mt-6 max-w-xl text-lg text-muted-foreground lg:mx-0">
            Draft, refine and finish your best work with an assistant that completes your sentences, reshapes
            whole documents and saves every word as you go.
          </p>
          <div className="mt-8 flex flex-col items-center gap-3 sm:flex-row sm:justify-center lg:justify-start">
            <Button size="lg" className="w-full sm:w-auto" onClick={() => openAuthDialog('signup')}>
              Start Writing
              <ArrowRight aria-hidden="true" />
            </Button>
            <Button size="lg" variant="outline" className="w-full sm:w-auto" asChild>
              <a href="#pricing">See pricing</a>
            </Button>
          </div>
          <p className="mt-4 inline-flex items-center gap-2 text-sm text-muted-foreground">
            <Check className="size-4 text-success" aria-hidden="true" />
            No credit card needed to start.
          </p>
        </div>
        <HeroPreview />
      </div>
    </section>
  );
}

/** A still picture of the editor, drawn with markup so the page loads no images or editor code. */
function HeroPreview() {
  return (
    <figure className="relative mx-auto w-full max-w-lg" aria-label="Preview of the Quillwright editor">
      <div className="overflow-hidden rounded-2xl border bg-card shadow-2xl shadow-primary/10">
        <div className="flex items-center gap-2 border-b px-4 py-3" aria-hidden="true">
          <span className="size-3 rounded-full bg-[#ff5f57]" />
          <span className="size-3 rounded-full bg-[#febc2e]" />
          <span className="size-3 rounded-full bg-[#28c840]" />
          <span className="ml-3 truncate text-sm text-muted-foreground">Chapter 3 — The Lighthouse</span>
        </div>
        <div className="space-y-4 p-6 text-left">
          {/* The sample document's title: a heading inside the preview, not one of the page's. */}
          <div className="font-serif text-xl font-semibold" role="heading" aria-level={3}>
            The Lighthouse Keeper
          </div>
          <p className="font-serif leading-relaxed text-card-foreground/90">
            Mara had kept the light for eleven winters, and in all that time the sea had never been this
            quiet.
          </p>
          <p className="font-serif leading-relaxed text-card-foreground/90">
            <mark className="rounded bg-primary/15 px-0.5 text-inherit">She climbed the stairs slowly</mark>,
            counting each step the way her father had taught her.
          </p>
          <div className="ml-auto w-fit rounded-xl border bg-popover p-1.5 text-sm text-popover-foreground shadow-lg">
            <p className="flex items-center gap-2 rounded-md bg-accent px-2.5 py-1.5 text-accent-foreground">
              <Wand2 className="size-4" aria-hidden="true" /> Improve writing
            </p>
            <p className="px-2.5 py-1.5 text-muted-foreground">Change tone</p>
            <p className="px-2.5 py-1.5 text-muted-foreground">Summarize</p>
          </div>
        </div>
      </div>
    </figure>
  );
}
