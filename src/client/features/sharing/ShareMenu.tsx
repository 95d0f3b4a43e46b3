import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { Switch } from '@client/components/ui/switch';
import { useToast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { COPIED_INDICATOR_MS } from '@shared/constants';
import type { ShareSettings, UpdateShareSettings } from '@shared/schemas/sharing';
import { shareAccessOf, shareLink, type ShareAccess } from '@shared/share-links';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { cn } from '@client/lib/utils';
import { Check, Copy, Globe, Lock, RotateCcw } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useResetShareLink, useShareSettings, useUpdateShareSettings } from './api';
import { ShareTrigger } from './ShareTrigger';
import { PeopleSection, useMembers } from '@client/features/people';

const PRIVATE: ShareSettings = {
  isPublic: false,
  allowEditing: false,
  allowSuggesting: false,
  allowCommenting: false,
  showSuggestions: false,
  expiresAt: null,
  hasPassword: false,
  linkKey: null,
};

/** The levels a link can grant, as the share menu offers them. */
const ACCESS_CHOICES: { access: ShareAccess; label: string; saved: string }[] = [
  { access: 'view', label: 'Can view', saved: 'Visitors can now only view' },
  { access: 'comment', label: 'Can comment', saved: 'Visitors can now comment' },
  { access: 'suggest', label: 'Can suggest', saved: 'Visitors can now suggest changes' },
  { access: 'edit', label: 'Can edit', saved: 'Visitors can now edit' },
];

const ACCESS_HINTS: Record<ShareAccess, string> = {
  view: 'Visitors with the link can read.',
  comment: 'Visitors with the link can read and comment on passages.',
  suggest: 'Visitors propose changes as suggestions you accept or reject.',
  edit: 'Visitors with the link can write with you, live.',
};

/** What the popover says a public link allows, at the level chosen. */
const PUBLIC_DESCRIPTIONS: Record<ShareAccess, string> = {
  view: 'Anyone with the link can view this document.',
  comment: 'Anyone with the link can comment on this document.',
  suggest: 'Anyone with the link can suggest changes to this document.',
  edit: 'Anyone with the link can edit this document.',
};

/** The choices a link is published with, before anything is public. */
interface Draft {
  access: ShareAccess;
  showSuggestions: boolean;
  expiresAt: string | null;
  password: string;
}

function localToday(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

const levelSettings = (access: ShareAccess) => ({
  allowEditing: access === 'edit',
  allowSuggesting: access === 'suggest',
  allowCommenting: access === 'comment',
});

/**
 * The editor's Share menu: every setting is saved to and enforced by the server, so the link, access level,
 * expiry and password really protect the document. Making a private document public first asks for the
 * link's choices (level, expiry, password) and publishes only when the owner confirms them, so a link never
 * goes out before its password is set. The link's address does not depend on the level: the server grants the
 * level chosen now to whoever opens it. Reset link replaces the address for good.
 */
export function ShareMenu({
  documentId,
  defaultOpen = false,
}: {
  documentId: string;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const { data, isLoading, isError, error, refetch, isFetching } = useShareSettings(documentId, open);
  const update = useUpdateShareSettings(documentId);
  const reset = useResetShareLink(documentId);
  // The same query as the People section's: with people on the document, "only you" would not be true.
  const invited = (useMembers({ kind: 'document', id: documentId }, open).data?.members.length ?? 0) > 0;
  const { toast } = useToast();
  const [copied, setCopied] = useState(false);
  const [password, setPassword] = useState('');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirmingReset, setConfirmingReset] = useState(false);
  // The control that takes the focus once the next render has put it there: publishing, cancelling or
  // resetting removes the control that had it, and the focus must not fall back to the page.
  const focusNext = useRef<keyof typeof focusTargets | null>(null);
  const setFocusNext = (target: keyof typeof focusTargets | null) => {
    focusNext.current = target;
  };
  const focusTargets = {
    public: useRef<HTMLButtonElement>(null),
    copy: useRef<HTMLButtonElement>(null),
    keep: useRef<HTMLButtonElement>(null),
    reset: useRef<HTMLButtonElement>(null),
  };
  // After every render: the target may arrive a render later (the stored settings follow the saved change).
  useEffect(() => {
    const target = focusNext.current && focusTargets[focusNext.current].current;
    if (!target) return;
    target.focus();
    focusNext.current = null;
  });
  const ids = {
    public: useId(),
    edit: useId(),
    expiry: useId(),
    password: useId(),
    link: useId(),
    suggestions: useId(),
  };
  const settings = data ?? PRIVATE;
  const access = shareAccessOf(settings);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  // A draft belongs to one opening of the menu: closing it publishes nothing.
  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (next) return;
    setDraft(null);
    setConfirmingReset(false);
    setFocusNext(null);
  };

  const failed = (error: unknown) =>
    toast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' });

  // Controls stay enabled while a change is saved: disabling the focused switch would drop keyboard focus to the
  // page. A change made meanwhile is ignored (the control shows the stored value again).
  const save = (changes: Partial<UpdateShareSettings>, description: string, onSaved?: () => void) => {
    if (update.isPending) return;
    const next: UpdateShareSettings = {
      isPublic: settings.isPublic,
      allowEditing: settings.allowEditing,
      allowSuggesting: settings.allowSuggesting,
      allowCommenting: settings.allowCommenting,
      showSuggestions: settings.showSuggestions,
      expiresAt: settings.expiresAt,
      ...changes,
    };
    update.mutate(next, {
      onSuccess: () => {
        onSaved?.();
        toast({ title: 'Sharing Updated', description });
      },
      onError: failed,
    });
  };

  const publish = (choices: Draft) =>
    save(
      {
        isPublic: true,
        ...levelSettings(choices.access),
        showSuggestions: choices.showSuggestions,
        expiresAt: choices.expiresAt,
        ...(choices.password ? { password: choices.password } : {}),
      },
      'Document is now public',
      () => {
        setDraft(null);
        setFocusNext('copy');
      },
    );

  const resetLink = () =>
    reset.mutate(undefined, {
      onSuccess: () => {
        setConfirmingReset(false);
        // The new address is what the owner hands out next.
        setFocusNext('copy');
        toast({ title: 'Sharing Updated', description: 'Link reset: the old link no longer works' });
      },
      onError: failed,
    });

  const link = shareLink(window.location.origin, documentId, settings);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast({ title: 'Link Copied', description: 'The share link is on your clipboard.' });
    } catch {
      toast({
        title: 'Copy Failed',
        description: 'Failed to copy link to clipboard',
        variant: 'destructive',
      });
    }
  };

  return (
    <Popover open={open} onOpenChange={changeOpen}>
      <PopoverTrigger asChild>
        <ShareTrigger />
      </PopoverTrigger>
      {/* On a phone the menu keeps a margin from the screen's edges rather than touching one. */}
      <PopoverContent
        align="end"
        collisionPadding={8}
        className="max-h-[calc(var(--radix-popover-content-available-height)-0.5rem)] w-[min(22rem,calc(100vw-1rem))] space-y-4 overflow-y-auto"
      >
        <PeopleSection target={{ kind: 'document', id: documentId }} enabled={open} />
        <div className="border-t" role="presentation" />
        {/* Without the stored settings nothing is shown as if it were: defaults would lie about a public link. */}
        {!data && isError ? (
          <div role="alert" className="space-y-3 text-sm" data-testid="share-load-error">
            <p className="font-medium">Sharing settings could not be loaded.</p>
            <p className="text-xs text-muted-foreground">{errorMessage(error)}</p>
            <Button size="sm" variant="outline" disabled={isFetching} onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          shareControls()
        )}
      </PopoverContent>
    </Popover>
  );

  function shareControls() {
    const shownPublic = settings.isPublic || draft !== null;
    return (
      <>
        <div className="flex items-start justify-between gap-3">
          <div className="space-y-0.5">
            <Label htmlFor={ids.public} className="flex items-center gap-1.5">
              {shownPublic ? <Globe className="size-4" /> : <Lock className="size-4" />}
              {settings.isPublic ? 'Public' : draft ? 'Publish a link' : 'Private'}
            </Label>
            <p className="text-xs text-muted-foreground" data-testid="share-description">
              {settings.isPublic
                ? PUBLIC_DESCRIPTIONS[access]
                : draft
                  ? 'Choose what visitors may do, then publish. Nothing is public until you do.'
                  : invited
                    ? 'No link: only you and the people above can open this document.'
                    : 'Only you can open this document.'}
            </p>
          </div>
          <Switch
            ref={focusTargets.public}
            id={ids.public}
            aria-label="Public link"
            checked={shownPublic}
            disabled={!data || isLoading}
            onCheckedChange={(on) => {
              if (settings.isPublic) {
                if (!on) save({ isPublic: false }, 'Document is now private');
                return;
              }
              setDraft(
                on
                  ? {
                      access,
                      showSuggestions: settings.showSuggestions,
                      expiresAt: settings.expiresAt,
                      password: '',
                    }
                  : null,
              );
            }}
          />
        </div>

        {draft && !settings.isPublic && publishForm(draft)}

        {settings.isPublic && (
          <>
            <div className="space-y-1.5">
              <Label htmlFor={ids.link}>Link</Label>
              <div className="flex gap-2">
                <Input
                  id={ids.link}
                  readOnly
                  value={link}
                  onFocus={(e) => e.currentTarget.select()}
                  className="text-xs"
                />
                <Button
                  ref={focusTargets.copy}
                  size="icon"
                  variant="outline"
                  onClick={copy}
                  aria-label={copied ? 'Copied' : 'Copy link'}
                >
                  {copied ? <Check className="text-green-600" /> : <Copy />}
                </Button>
              </div>
            </div>
            {optionFields(
              {
                access,
                showSuggestions: settings.showSuggestions,
                expiresAt: settings.expiresAt,
              },
              {
                access: (value) => {
                  const choice = ACCESS_CHOICES.find((c) => c.access === value);
                  if (choice) save(levelSettings(value), choice.saved);
                },
                showSuggestions: (show) =>
                  save(
                    { showSuggestions: show },
                    show ? 'Readers now see suggested changes' : 'Suggested changes are hidden from readers',
                  ),
                expiresAt: (value) =>
                  save({ expiresAt: value }, value ? `Link expires after ${value}` : 'Link never expires'),
              },
            )}
            {passwordForm()}
            {resetSection()}
          </>
        )}
      </>
    );
  }

  /** Level, whether readers see suggestions, expiry: saved at once when public, kept in the draft before. */
  function optionFields(
    value: Pick<Draft, 'access' | 'showSuggestions' | 'expiresAt'>,
    onChange: {
      access: (access: ShareAccess) => void;
      showSuggestions: (show: boolean) => void;
      expiresAt: (date: string | null) => void;
    },
  ) {
    return (
      <>
        <div className="space-y-1.5">
          <Label id={ids.edit}>Visitors with the link</Label>
          <ChoiceGroup
            aria-labelledby={ids.edit}
            className="grid grid-cols-2 gap-0.5 rounded-lg bg-muted p-0.5"
            value={value.access}
            onValueChange={(next) => {
              const choice = ACCESS_CHOICES.find((c) => c.access === next);
              if (choice) onChange.access(choice.access);
            }}
          >
            {ACCESS_CHOICES.map((choice) => (
              <ChoiceItem
                key={choice.access}
                value={choice.access}
                className={cn(
                  'h-8 rounded-md px-2 text-xs font-medium text-muted-foreground transition hover:text-foreground',
                  'data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm',
                )}
              >
                {choice.label}
              </ChoiceItem>
            ))}
          </ChoiceGroup>
          <p className="text-xs text-muted-foreground">{ACCESS_HINTS[value.access]}</p>
        </div>
        {(value.access === 'view' || value.access === 'comment') && (
          <div className="flex items-center justify-between gap-3">
            <Label htmlFor={ids.suggestions} className="text-sm font-normal">
              Show suggested changes to readers
            </Label>
            <Switch
              id={ids.suggestions}
              checked={value.showSuggestions}
              onCheckedChange={onChange.showSuggestions}
            />
          </div>
        )}
        <div className="space-y-1.5">
          <Label htmlFor={ids.expiry}>Expires</Label>
          <Input
            id={ids.expiry}
            type="date"
            min={localToday()}
            value={value.expiresAt ?? ''}
            onChange={(e) => {
              const date = e.target.value || null;
              if (date && date < localToday()) return;
              onChange.expiresAt(date);
            }}
          />
        </div>
      </>
    );
  }

  function publishForm(choices: Draft) {
    return (
      <form
        className="space-y-4"
        aria-label="Publish a link"
        onSubmit={(e) => {
          e.preventDefault();
          publish(choices);
        }}
      >
        {optionFields(choices, {
          access: (value) => setDraft({ ...choices, access: value }),
          showSuggestions: (show) => setDraft({ ...choices, showSuggestions: show }),
          expiresAt: (date) => setDraft({ ...choices, expiresAt: date }),
        })}
        <div className="space-y-1.5">
          <Label htmlFor={ids.password}>Password</Label>
          <Input
            id={ids.password}
            type="password"
            autoComplete="new-password"
            placeholder="Optional"
            value={choices.password}
            onChange={(e) => setDraft({ ...choices, password: e.target.value })}
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              setDraft(null);
              setFocusNext('public');
            }}
          >
            Cancel
          </Button>
          <Button type="submit" size="sm" disabled={update.isPending}>
            Publish
          </Button>
        </div>
      </form>
    );
  }

  function passwordForm() {
    return (
      <form
        className="space-y-1.5"
        onSubmit={(e) => {
          e.preventDefault();
          if (!password) return;
          save({ password }, 'Password set');
          setPassword('');
        }}
      >
        <Label htmlFor={ids.password}>
          Password {settings.hasPassword && <span className="text-xs text-muted-foreground">(set)</span>}
        </Label>
        <div className="flex gap-2">
          <Input
            id={ids.password}
            type="password"
            autoComplete="new-password"
            placeholder={settings.hasPassword ? 'Enter a new password' : 'Optional'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Button type="submit" variant="secondary" disabled={!password || update.isPending}>
            Set
          </Button>
        </div>
        {settings.hasPassword && (
          <Button
            type="button"
            variant="link"
            size="sm"
            className="h-auto px-0"
            onClick={() => save({ password: null }, 'Password removed')}
          >
            Remove password
          </Button>
        )}
      </form>
    );
  }

  /** Replacing a leaked link: asks once, because everyone holding the current link loses it. */
  function resetSection() {
    if (!confirmingReset) {
      return (
        <div className="border-t pt-3">
          <Button
            ref={focusTargets.reset}
            variant="outline"
            size="sm"
            onClick={() => {
              setConfirmingReset(true);
              // The question is answered from the safe side first.
              setFocusNext('keep');
            }}
          >
            <RotateCcw />
            Reset link
          </Button>
        </div>
      );
    }
    return (
      <div className="space-y-2 border-t pt-3" role="group" aria-label="Reset link">
        <p className="text-xs text-muted-foreground">
          The link gets a new address. The current one stops working at once for everyone who has it,
          including anyone reading or editing now.
        </p>
        <div className="flex justify-end gap-2">
          <Button
            ref={focusTargets.keep}
            variant="ghost"
            size="sm"
            onClick={() => {
              setConfirmingReset(false);
              setFocusNext('reset');
            }}
          >
            Keep link
          </Button>
          <Button variant="destructive" size="sm" disabled={reset.isPending} onClick={resetLink}>
            Reset link
          </Button>
        </div>
      </div>
    );
  }
}
