import { ChevronRight, Cloud, CloudOff, CloudUpload, Sparkles, UserRound } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Logo } from '@client/features/landing/Logo';
import { cn } from '@client/lib/utils';
import { displayTitle } from '@client/lib/document-title';
import { timeAgo } from '@client/lib/time-ago';

const CLOCK_TICK_MS = 30_000;

/** Re-renders its caller every 30 s so relative times ("2 minutes ago") stay true. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(id);
  }, []);
  return now;
}

export function LastEdited({ at }: { at: Date | null }) {
  useNow();
  if (!at) return null;
  return (
    <span className="text-xs text-muted-foreground" data-testid="last-edited" title={at.toLocaleString()}>
      Last edited {timeAgo(at)}
    </span>
  );
}

/**
 * "Saving..." / "Saved" (SPEC §2). With auto-save off and changes the writer has not saved: "Unsaved changes"
 * and a Save button (also Ctrl+S / ⌘S).
 */
export function SaveStatus({
  saving,
  unsaved = false,
  onSave,
}: {
  saving: boolean;
  unsaved?: boolean;
  onSave?: () => void;
}) {
  if (unsaved) {
    return (
      <span
        className="inline-flex items-center gap-2 text-xs text-muted-foreground"
        data-testid="save-status"
        aria-live="polite"
      >
        <span className="inline-flex items-center gap-1">
          <span className="size-1.5 rounded-full bg-amber-500" aria-hidden />
          Unsaved changes
        </span>
        <Button
          size="sm"
          variant="outline"
          className="h-6 px-2 text-xs"
          onClick={onSave}
          title="Save (Ctrl+S)"
          data-testid="save-button"
        >
          Save
        </Button>
      </span>
    );
  }
  return (
    <span
      className="inline-flex items-center gap-1 text-xs text-muted-foreground"
      data-testid="save-status"
      aria-live="polite"
    >
      {/* A still icon, not a spinner: 'Saving...' shows the whole time a writer types, and a running animation
          made the browser restyle the page in every keystroke's frame (docs/performance.md, typing). */}
      {saving ? <CloudUpload className="size-3" aria-hidden /> : <Cloud className="size-3" aria-hidden />}
      {saving ? 'Saving...' : 'Saved'}
    </span>
  );
}

export function ConnectionBadge({ live }: { live: boolean }) {
  return (
    <Badge
      variant={live ? 'default' : 'secondary'}
      data-testid="connection-badge"
      // emerald-700: white text on it meets 4.5:1 (emerald-600 is 3.8:1).
      className={cn('gap-1', live && 'bg-emerald-700 text-white hover:bg-emerald-700')}
    >
      {live ? (
        <span className="size-1.5 rounded-full bg-white" aria-hidden />
      ) : (
        <CloudOff className="size-3" aria-hidden />
      )}
      {live ? 'Live' : 'Offline'}
    </Badge>
  );
}

export interface EditorHeaderProps {
  title: string;
  saveStatus: ReactNode;
  live: boolean;
  aiEnabled: boolean;
  lastEditedAt: Date | null;
  userName: string;
  planName: string;
  onOpenAccount: () => void;
  /** Share, history and export menus. */
  actions?: ReactNode;
  /** The Editing / Suggesting switch. */
  modeSwitch?: ReactNode;
}

export function EditorHeader(props: EditorHeaderProps) {
  const {
    title,
    saveStatus,
    live,
    aiEnabled,
    lastEditedAt,
    userName,
    planName,
    onOpenAccount,
    actions,
    modeSwitch,
  } = props;
  return (
    <header className="@container border-b">
      <div className="flex h-14 items-center gap-3 px-3 sm:px-4">
        <Link href="/" aria-label="Home" className="shrink-0">
          <Logo className="[&>span:last-child]:hidden sm:[&>span:last-child]:inline" />
        </Link>
        <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1 text-sm">
          <Link href="/" className="hidden text-muted-foreground hover:text-foreground sm:inline">
            Documents
          </Link>
          <ChevronRight className="hidden size-4 shrink-0 text-muted-foreground sm:inline" aria-hidden />
          <span className="min-w-12 truncate font-medium" data-testid="breadcrumb-title">
            {displayTitle(title)}
          </span>
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-2 sm:gap-3">
          <span className="hidden @min-[60rem]:inline">{saveStatus}</span>
          <ConnectionBadge live={live} />
          <div className="hidden items-center gap-2 sm:flex">{actions}</div>
          <Button
            variant="ghost"
            size="sm"
            className="h-9 gap-2 px-2"
            onClick={onOpenAccount}
            data-testid="user-chip"
            aria-label="Account settings"
          >
            <span className="grid size-7 place-items-center rounded-full bg-primary/10 text-primary">
              <UserRound className="size-4" aria-hidden />
            </span>
            <span className="hidden flex-col items-start leading-tight @min-[60rem]:flex">
              <span className="max-w-32 truncate text-xs font-medium">{userName}</span>
              <span className="text-[10px] text-muted-foreground">{planName} Plan</span>
            </span>
          </Button>
        </div>
      </div>
      {/* In a header narrower than 60rem (a small screen, or beside the chat panel) the save status moves to this row
          and the title keeps the top row's room; below sm the menus move here too. */}
      <div className="flex items-center gap-3 border-t px-3 py-1 sm:px-4 @min-[60rem]:hidden">
        {saveStatus}
        <div className="ml-auto flex items-center gap-2 sm:hidden">{actions}</div>
      </div>
      <div className="flex items-center gap-3 px-3 pb-1 sm:px-4">
        <span
          className={cn(
            'inline-flex items-center gap-1 text-xs',
            aiEnabled ? 'text-violet-600 dark:text-violet-400' : 'text-muted-foreground',
          )}
          data-testid="ai-status"
        >
          <Sparkles className="size-3" aria-hidden />
          {aiEnabled ? 'AI Writing Enabled' : 'AI Writing Disabled'}
        </span>
        <LastEdited at={lastEditedAt} />
        {modeSwitch && <div className="ml-auto py-0.5">{modeSwitch}</div>}
      </div>
    </header>
  );
}
