import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { Logo } from '@client/components/Logo';

export interface LegalSection {
  id: string;
  title: string;
  body: React.ReactNode;
}

/** The legal pages show today's date as their "last updated" date. */
function formatLastUpdated(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(date);
}

/** Shared frame of /privacy and /terms: header with the way back, title, date, contents and sections. */
export function LegalLayout({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: React.ReactNode;
  sections: LegalSection[];
}) {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · ${PRODUCT_NAME}`;
    return () => {
      document.title = previous;
    };
  }, [title]);

  return (
    <div className="min-h-screen bg-background text-foreground">
      <header className="border-b">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link href="/" aria-label={`${PRODUCT_NAME} home`} className="rounded-md">
            <Logo />
          </Link>
          <Button variant="outline" asChild>
            <Link href="/">
              <ArrowLeft aria-hidden="true" />
              Back to home
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto grid max-w-5xl gap-12 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_14rem]">
        <article className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
          <p className="mt-3 text-sm text-muted-foreground">
            Last updated:{' '}
            <time dateTime={new Date().toISOString().slice(0, 10)}>{formatLastUpdated(new Date())}</time>
          </p>
          <div className="mt-8 text-lg leading-relaxed text-muted-foreground [&_p]:mt-4">{intro}</div>
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-title`}
              className="mt-12 scroll-mt-8"
            >
              <h2 id={`${section.id}-title`} className="text-xl font-semibold tracking-tight sm:text-2xl">
                {index + 1}. {section.title}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-foreground/90 [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_li]:pl-1 [&_strong]:font-semibold [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
                {section.body}
              </div>
            </section>
          ))}
          <div className="mt-16 border-t pt-8">
            <Button asChild>
              <Link href="/">
                <ArrowLeft aria-hidden="true" />
                Back to home
              </Link>
            </Button>
          </div>
        </article>
        <nav aria-label="On this page" className="hidden lg:block">
          <div className="sticky top-8">
            <p className="text-sm font-semibold">On this page</p>
            <ol className="mt-3 space-y-2 text-sm">
              {sections.map((section) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    className="rounded-sm text-muted-foreground transition-colors hover:text-foreground"
                  >
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>
      </main>
      <footer className="border-t">
        <div className="mx-auto flex max-w-5xl flex-col gap-3 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:justify-between sm:px-6">
          <p>
            © {new Date().getFullYear()} {PRODUCT_NAME}
          </p>
          <nav aria-label="Legal" className="flex gap-6">
            <Link href="/privacy" className="rounded-sm hover:text-foreground">
              Privacy Policy
            </Link>
            <Link href="/terms" className="rounded-sm hover:text-foreground">
              Terms of Service
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
