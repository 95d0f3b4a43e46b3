import { ArrowRight, Check } from 'lucide-react';
import { planById } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { useAuthDialog } from '@client/features/auth';

const FREE_DOCUMENTS = planById('gratis').limits.documents;

const PROMISES = [
  `Free plan with ${FREE_DOCUMENTS} documents, no card required`,
  'Autosave and PDF / Word export from day one',
  'Upgrade, downgrade or cancel whenever you like',
];

/**
 * By design the inputs here are not wired to submit; the button (and Enter in a field) opens the sign-up
 * dialog, where the account is actually created — starting from what was typed here.
 */
export function GetStarted() {
  const { openAuthDialog } = useAuthDialog();
  return (
    <section id="get-started" aria-labelledby="get-started-title" className="scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2">
        <div>
          <h2 id="get-started-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Get Started
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">
            Create your account and write your first document in less time than it takes to make coffee.
          </p>
          <ul className="mt-6 space-y-3">
            {PROMISES.map((promise) => (
              <li key={promise} className="flex items-start gap-3">
                <Check className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
                {promise}
              </li>
            ))}
          </ul>
        </div>
        <form
          aria-labelledby="get-started-title"
          className="rounded-2xl border bg-card p-6 text-card-foreground shadow-lg sm:p-8"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            const field = (name: string) => String(form.get(name) ?? '');
            openAuthDialog('signup', {
              fullName: field('name'),
              email: field('email'),
              password: field('password'),
            });
          }}
        >
          <div className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="get-started-name">Full name</Label>
              <Input id="get-started-name" name="name" autoComplete="name" placeholder="Ada Lovelace" />
            </div>
            <div className="space-y-2">
              <Label htmlFor="get-started-email">Email</Label>
              <Input
                id="get-started-email"
                name="email"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="get-started-password">Password</Label>
              <Input id="get-started-password" name="password" type="password" autoComplete="new-password" />
            </div>
          </div>
          <Button type="submit" size="lg" className="mt-6 w-full">
            Create Account & Start Writing
            <ArrowRight aria-hidden="true" />
          </Button>
          <p className="mt-4 text-center text-sm text-muted-foreground">
            Already have an account?{' '}
            <button
              type="button"
              className="rounded-sm font-medium text-primary underline-offset-4 hover:underline"
              onClick={() => openAuthDialog('signin')}
            >
              Sign in
            </button>
          </p>
        </form>
      </div>
    </section>
  );
}
