import { ChevronRight, Cloud, CloudOff, CloudUpload, Sparkles, UserRound } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Logo } from '@client/components/Logo';
import { ShortcutSheetButton } from '@client/features/shortcuts';
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

function LastEdited({ at }: { at: Date | null }) {
  useNow();
  if (!at) return null;
  return (
    <span
      className="shrink-0 text-xs text-muted-foreground"
      data-testid="last-edited"
      title={at.toLocaleString()}
    >
      Last edited {timeAgo(at)}
    </span>
  );
}

/**
 * "Saving..." / "Saved". With auto-save off and changes the writer has not saved: "Unsaved changes"
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

function ConnectionBadge({ live }: { live: boolean }) {
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

/**
 * The avatar button that opens account settings, with the writer's name and plan beside it (not in it): the
 * button's name stays "Account settings", which is what speech users say and what axe checks against its visible
 * text, and the name and plan are its label, so clicking them opens the settings too.
 */
function AccountChip({
  userName,
  planName,
  onOpen,
}: {
  userName: string;
  planName: string;
  onOpen: () => void;
}) {
  const buttonId = useId();
  return (
    <div className="flex items-center" data-testid="user-chip">
      <Button
        id={buttonId}
        variant="ghost"
        size="icon"
        className="size-9 rounded-full"
        onClick={onOpen}
        aria-label="Account settings"
        title="Account settings"
      >
        <span className="grid size-7 place-items-center rounded-full bg-primary/10 text-primary">
          <UserRound className="size-4" aria-hidden />
        </span>
      </Button>
      <label
        htmlFor={buttonId}
        className="hidden cursor-pointer flex-col items-start py-1 pl-1 leading-tight @min-[72rem]:flex"
      >
        <span className="max-w-32 truncate text-xs font-medium">{userName}</span>
        <span className="text-[10px] text-muted-foreground">{planName} Plan</span>
      </label>
    </div>
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
  /** Breadcrumb links between "Documents" and the title (the document's folders). */
  crumbs?: ReactNode;
  /** The live counts (words, characters, minutes to read). */
  counts?: ReactNode;
  /**
   * The notifications bell: beside the account button on a phone and in a wide header, on the save status's row
   * in between (where the top row is full).
   */
  notifications?: ReactNode;
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
    counts,
    crumbs,
    notifications,
  } = props;
  // Below lg the shortcuts hint box (with its "All shortcuts" link) is hidden: the sheet opens from the header
  // instead, on the second row where there is one (the top row keeps its room for the title).
  return (
    <header className="@container border-b">
      <div className="flex h-12 items-center gap-3 px-3 sm:h-14 sm:px-4">
        <Link href="/" aria-label="Quillwright home" className="shrink-0">
          <Logo className="[&>span:last-child]:hidden sm:[&>span:last-child]:inline" />
        </Link>
        {/* The title gives way to the menus: below a 60rem header the trail is the title alone, and the trail
            is clipped rather than drawn under the right-hand group. */}
        <nav aria-label="Breadcrumb" className="flex min-w-0 items-center gap-1 overflow-hidden text-sm">
          <Link
            href="/"
            className="hidden shrink-0 text-muted-foreground hover:text-foreground @min-[60rem]:inline"
          >
            Documents
          </Link>
          <ChevronRight
            className="hidden size-4 shrink-0 text-muted-foreground @min-[60rem]:inline"
            aria-hidden
          />
          {crumbs}
          <span className="min-w-12 truncate font-medium" data-testid="breadcrumb-title">
            {displayTitle(title)}
          </span>
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-2 sm:gap-3">
          <span className="hidden @min-[60rem]:inline">{saveStatus}</span>
          <ConnectionBadge live={live} />
          <div className="hidden items-center gap-2 sm:flex">
            {actions}
            <ShortcutSheetButton className="hidden max-lg:@min-[60rem]:inline-flex" />
          </div>
          {/* The bell: here on a phone (the menus have moved to the row below) and in a wide header. */}
          <div className="hidden max-sm:contents @min-[60rem]:contents">{notifications}</div>
          <AccountChip userName={userName} planName={planName} onOpen={onOpenAccount} />
        </div>
      </div>
      {/* In a header narrower than 60rem (a small screen, or beside the chat panel) the save status moves to this row
          and the title keeps the top row's room; below sm the menus move here too. */}
      <div className="flex items-center gap-3 px-3 py-0.5 sm:px-4 @min-[60rem]:hidden">
        {saveStatus}
        <div className="ml-auto flex items-center gap-2">
          <div className="flex items-center gap-2 sm:hidden">{actions}</div>
          <ShortcutSheetButton className="lg:hidden" />
          {/* Between the two, the top row is full: the bell sits here, beside the shortcuts button. */}
          <div className="hidden sm:contents">{notifications}</div>
        </div>
      </div>
      {/* Status of the writing, one line of small text; on a phone it scrolls sideways rather than taking rows,
          with the Editing / Suggesting switch first. */}
      <div className="flex items-center gap-3 overflow-x-auto px-3 pb-1 whitespace-nowrap [scrollbar-width:none] sm:px-4">
        {modeSwitch && <div className="shrink-0 py-0.5 sm:order-last sm:ml-auto">{modeSwitch}</div>}
        <span
          className={cn(
            'inline-flex shrink-0 items-center gap-1 text-xs',
            aiEnabled ? 'text-violet-600 dark:text-violet-400' : 'text-muted-foreground',
          )}
          data-testid="ai-status"
        >
          <Sparkles className="size-3" aria-hidden />
          {aiEnabled ? 'AI Writing Enabled' : 'AI Writing Disabled'}
        </span>
        <LastEdited at={lastEditedAt} />
        {counts}
      </div>
    </header>
  );
}
