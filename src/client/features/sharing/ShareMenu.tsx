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
import { Check, Copy, Globe, Lock } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useShareSettings, useUpdateShareSettings } from './api';
import { ShareTrigger } from './ShareTrigger';

const PRIVATE: ShareSettings = {
  isPublic: false,
  allowEditing: false,
  allowSuggesting: false,
  expiresAt: null,
  hasPassword: false,
};

/** The three levels a link can grant, as the share menu offers them. */
const ACCESS_CHOICES: { access: ShareAccess; label: string; saved: string }[] = [
  { access: 'view', label: 'Can view', saved: 'Visitors can now only view' },
  { access: 'suggest', label: 'Can suggest', saved: 'Visitors can now suggest changes' },
  { access: 'edit', label: 'Can edit', saved: 'Visitors can now edit' },
];

const ACCESS_HINTS: Record<ShareAccess, string> = {
  view: 'Visitors with the link can read.',
  suggest: 'Visitors propose changes as suggestions you accept or reject.',
  edit: 'Visitors with the link can write with you, live.',
};

function localToday(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

/**
 * The editor's Share menu (SPEC §2): every setting is saved to and enforced by the server, so the link,
 * editing permission, expiry and password really protect the document.
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
  const { toast } = useToast();
  const [copied, setCopied] = useState(false);
  const [password, setPassword] = useState('');
  const ids = { public: useId(), edit: useId(), expiry: useId(), password: useId(), link: useId() };
  const settings = data ?? PRIVATE;
  const access = shareAccessOf(settings);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  // Controls stay enabled while a change is saved: disabling the focused switch would drop keyboard focus to the
  // page. A change made meanwhile is ignored (the control shows the stored value again).
  const save = (changes: Partial<UpdateShareSettings>, description: string) => {
    if (update.isPending) return;
    const next: UpdateShareSettings = {
      isPublic: settings.isPublic,
      allowEditing: settings.allowEditing,
      allowSuggesting: settings.allowSuggesting,
      expiresAt: settings.expiresAt,
      ...changes,
    };
    update.mutate(next, {
      onSuccess: () => toast({ title: 'Sharing Updated', description }),
      onError: (error) =>
        toast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' }),
    });
  };

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
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <ShareTrigger />
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 space-y-4">
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
    return (
      <>
        <div className="flex items-start justify-between gap-3">
          <div className="space-y-0.5">
            <Label htmlFor={ids.public} className="flex items-center gap-1.5">
              {settings.isPublic ? <Globe className="size-4" /> : <Lock className="size-4" />}
              {settings.isPublic ? 'Public' : 'Private'}
            </Label>
            <p className="text-xs text-muted-foreground">
              {settings.isPublic
                ? 'Anyone with the link can view this document.'
                : 'Only you can open this document.'}
            </p>
          </div>
          <Switch
            id={ids.public}
            aria-label="Public link"
            checked={settings.isPublic}
            disabled={!data || isLoading}
            onCheckedChange={(isPublic) =>
              save({ isPublic }, isPublic ? 'Document is now public' : 'Document is now private')
            }
          />
        </div>

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
                  size="icon"
                  variant="outline"
                  onClick={copy}
                  aria-label={copied ? 'Copied' : 'Copy link'}
                >
                  {copied ? <Check className="text-green-600" /> : <Copy />}
                </Button>
              </div>
            </div>
            <div className="space-y-1.5">
              <Label id={ids.edit}>Visitors with the link</Label>
              <ChoiceGroup
                aria-labelledby={ids.edit}
                className="grid grid-cols-3 gap-0.5 rounded-lg bg-muted p-0.5"
                value={access}
                onValueChange={(value) => {
                  const choice = ACCESS_CHOICES.find((c) => c.access === value);
                  if (!choice) return;
                  save(
                    { allowEditing: value === 'edit', allowSuggesting: value === 'suggest' },
                    choice.saved,
                  );
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
              <p className="text-xs text-muted-foreground">{ACCESS_HINTS[access]}</p>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={ids.expiry}>Expires</Label>
              <Input
                id={ids.expiry}
                type="date"
                min={localToday()}
                value={settings.expiresAt ?? ''}
                onChange={(e) => {
                  const value = e.target.value || null;
                  if (value && value < localToday()) return;
                  save({ expiresAt: value }, value ? `Link expires after ${value}` : 'Link never expires');
                }}
              />
            </div>
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
                Password{' '}
                {settings.hasPassword && <span className="text-xs text-muted-foreground">(set)</span>}
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
          </>
        )}
      </>
    );
  }
}
