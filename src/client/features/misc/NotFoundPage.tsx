import { ArrowLeft, FileQuestion } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

/** The 404 screen: any path the router does not know. */
export function NotFoundPage() {
  return (
    <main className="grid min-h-screen place-items-center bg-background px-4 text-foreground">
      <div className="max-w-md text-center">
        <span className="mx-auto grid size-14 place-items-center rounded-2xl bg-muted text-muted-foreground">
          <FileQuestion className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight">404 Page Not Found</h1>
        <p className="mt-3 text-muted-foreground">Did you forget to add the page to the router?</p>
        <Button asChild className="mt-8">
          <Link href="/">
            <ArrowLeft aria-hidden="true" />
            Back to home
          </Link>
        </Button>
      </div>
    </main>
  );
}
