import { LogOutIcon, Settings2Icon, Trash2Icon } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { useAuth } from '@client/features/auth';
import { NotificationsBell } from '@client/features/notifications';
import { Logo } from '@client/components/Logo';

/**
 * The dashboard header: product name, the user's e-mail, the notifications' bell, the trash, account settings (where the page offers
 * them) and Sign Out.
 */
export function DashboardHeader({ onOpenSettings }: { onOpenSettings?: () => void }) {
  const { user, signOut } = useAuth();
  const [location] = useLocation();
  return (
    <header className="sticky top-0 z-30 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link href="/" className="rounded-lg" aria-label="Quillwright home">
          <Logo />
        </Link>
        <div className="flex min-w-0 items-center gap-1 sm:gap-2">
          <span
            className="hidden max-w-[16rem] truncate text-sm text-muted-foreground sm:inline"
            data-testid="user-email"
            title={user?.email}
          >
            {user?.email}
          </span>
          <NotificationsBell />
          <Button asChild variant="ghost" size="sm">
            <Link href="/trash" aria-current={location === '/trash' ? 'page' : undefined}>
              <Trash2Icon aria-hidden="true" />
              {/* On a phone the icon alone, so the bell fits beside it. */}
              <span className="max-sm:sr-only">Trash</span>
            </Link>
          </Button>
          {onOpenSettings ? (
            <Tooltip>
              <TooltipTrigger asChild>
                <Button variant="ghost" size="icon" onClick={onOpenSettings} aria-label="Account settings">
                  <Settings2Icon />
                </Button>
              </TooltipTrigger>
              <TooltipContent>Account settings</TooltipContent>
            </Tooltip>
          ) : null}
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOutIcon aria-hidden="true" />
            Sign Out
          </Button>
        </div>
      </div>
    </header>
  );
}
