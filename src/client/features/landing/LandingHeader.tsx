import { MenuIcon, XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Logo } from '@client/components/Logo';
import { useAuthDialog, useAuth } from '@client/features/auth';

/** Leaves `/#pricing` for the dashboard (a history change without a hashchange event, so announce it). */
function goToDashboard() {
  window.history.pushState(null, '', '/');
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  window.scrollTo(0, 0);
}

// A fixed id, not useId(): the build-time HTML of the page and the app's first render must be the same markup.
const MENU_ID = 'landing-sections-menu';

const SECTIONS = [
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
] as const;

export function LandingHeader() {
  const { openAuthDialog } = useAuthDialog();
  const { user } = useAuth();
  // Below md the section links sit behind a menu button, in a panel under the header.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-border/60 bg-background/80 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4 sm:px-6">
        <Link href="/" aria-label="Quillwright home" className="shrink-0 rounded-md">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {SECTIONS.map(({ href, label }) => (
            <Button key={href} variant="ghost" asChild>
              <a href={href}>{label}</a>
            </Button>
          ))}
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          {user ? (
            <Button onClick={goToDashboard}>Back to Dashboard</Button>
          ) : (
            <>
              <Button variant="ghost" className="px-2.5 sm:px-4" onClick={() => openAuthDialog('signin')}>
                Sign In
              </Button>
              <Button className="px-3 sm:px-4" onClick={() => openAuthDialog('signup')}>
                Get started
              </Button>
            </>
          )}
          <Button
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-expanded={menuOpen}
            aria-controls={MENU_ID}
            aria-label="Menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <XIcon aria-hidden="true" /> : <MenuIcon aria-hidden="true" />}
          </Button>
        </div>
      </div>
      <nav
        id={MENU_ID}
        aria-label="Sections"
        hidden={!menuOpen}
        className="border-t border-border/60 px-4 pb-3 pt-2 md:hidden"
      >
        <ul className="flex flex-col">
          {SECTIONS.map(({ href, label }) => (
            <li key={href}>
              <a
                href={href}
                className="block rounded-md px-3 py-2.5 text-base font-medium hover:bg-accent"
                onClick={() => setMenuOpen(false)}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
