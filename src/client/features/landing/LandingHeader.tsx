import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Logo } from './Logo';
import { useAuthDialog } from '@client/features/auth/auth-dialog';
import { useAuth } from '@client/features/auth/AuthProvider';

/** Leaves `/#pricing` for the dashboard (a history change without a hashchange event, so announce it). */
function goToDashboard() {
  window.history.pushState(null, '', '/');
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  window.scrollTo(0, 0);
}

export function LandingHeader() {
  const { openAuthDialog } = useAuthDialog();
  const { user } = useAuth();
  return (
    <header className="sticky top-0 z-40 border-b border-border/60 bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link href="/" aria-label="Quillwright home" className="rounded-md">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          <Button variant="ghost" asChild>
            <a href="#features">Features</a>
          </Button>
          <Button variant="ghost" asChild>
            <a href="#pricing">Pricing</a>
          </Button>
        </nav>
        {user ? (
          <Button onClick={goToDashboard}>Back to Dashboard</Button>
        ) : (
          <div className="flex items-center gap-2">
            <Button variant="ghost" onClick={() => openAuthDialog('signin')}>
              Sign in
            </Button>
            <Button onClick={() => openAuthDialog('signup')}>Get started</Button>
          </div>
        )}
      </div>
    </header>
  );
}
