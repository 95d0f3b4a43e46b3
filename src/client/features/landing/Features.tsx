import { Pause, Play } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { AutosaveDemo, CompletionDemo, RefactorDemo } from './demos';
import { useDemoMotion } from './motion';

const FEATURES = [
  {
    id: 'completion',
    eyebrow: 'Write',
    title: 'Context-aware completion',
    body: 'Quillwright reads what you have written so far and offers the next sentence in your voice. Press Tab to keep it, or just keep typing.',
    points: ['Follows your tone and vocabulary', 'Never interrupts: suggestions wait for a pause'],
    Demo: CompletionDemo,
  },
  {
    id: 'refactor',
    eyebrow: 'Reshape',
    title: 'Instant document refactor',
    body: 'Turn a rambling draft into an executive summary, an outline or a friendlier tone in one step, then keep editing the result.',
    points: ['Summaries, outlines, rewrites and tone changes', 'Apply to a selection or the whole document'],
    Demo: RefactorDemo,
  },
  {
    id: 'autosave',
    eyebrow: 'Relax',
    title: 'Always-on autosave',
    body: 'Every change is saved a moment after you stop typing, and open windows stay in sync. There is no save button to forget.',
    points: ['Saved automatically as you write', 'Pick up on any device where you left off'],
    Demo: AutosaveDemo,
  },
] as const;

export function Features() {
  const { paused, setPaused, reducedMotion } = useDemoMotion();
  return (
    <section
      id="features"
      aria-labelledby="features-title"
      className="scroll-mt-20 border-t bg-muted/30 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="features-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Everything you need to write your best work
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">
            An assistant that works inside your document, not in a separate chat window.
          </p>
          {!reducedMotion && (
            <Button variant="outline" size="sm" className="mt-6" onClick={() => setPaused(!paused)}>
              {paused ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
              {paused ? 'Play animations' : 'Pause animations'}
            </Button>
          )}
        </div>
        <div className="mt-16 space-y-20 sm:space-y-28">
          {FEATURES.map(({ id, eyebrow, title, body, points, Demo }, index) => (
            <article
              key={id}
              aria-labelledby={`feature-${id}`}
              className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16"
            >
              <div className={cn(index % 2 === 1 && 'lg:order-2')}>
                <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
                <h3 id={`feature-${id}`} className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">
                  {title}
                </h3>
                <p className="mt-4 text-lg text-muted-foreground">{body}</p>
                <ul className="mt-6 space-y-2">
                  {points.map((point) => (
                    <li key={point} className="flex items-start gap-3">
                      <span className="mt-2.5 size-1.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
                      {point}
                    </li>
                  ))}
                </ul>
              </div>
              <Demo />
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
