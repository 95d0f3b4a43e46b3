import {
  BellIcon,
  CreditCardIcon,
  Loader2Icon,
  LogOutIcon,
  MonitorIcon,
  MoonIcon,
  SlidersHorizontalIcon,
  SparklesIcon,
  SunIcon,
  UserIcon,
  WandSparklesIcon,
} from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { NotificationSettings, Preferences, UpdateUserSettings } from '@shared/settings-defaults';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Separator } from '@client/components/ui/separator';
import { Skeleton } from '@client/components/ui/skeleton';
import { Switch } from '@client/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from '@client/features/auth/AuthProvider';
import { SubscriptionTab } from '@client/features/billing/SubscriptionTab';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import { useUpdateUserSettings, useUserSettings } from './queries';
import { AiSettingsTab } from './ai/AiSettingsTab';
import { AiCommandsSettings } from '@client/features/ai-commands/AiCommandsSettings';
import { useTheme, type ThemePreference } from './theme';

export type SettingsTab = 'profile' | 'preferences' | 'subscription' | 'notifications' | 'commands' | 'ai';

export interface AccountSettingsDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  defaultTab?: SettingsTab;
}

/** SPEC §2 Account settings dialog: Profile, Preferences, Subscription, Notifications, and AI commands. */
export function AccountSettingsDialog({
  open,
  onOpenChange,
  defaultTab = 'profile',
}: AccountSettingsDialogProps) {
  const [tab, setTab] = useState<SettingsTab>(defaultTab);
  // The AI tab (providers, keys, allowance) is for instance admins only.
  const isAdmin = useAuth().user?.role === 'admin';
  // Each opening starts on the tab the caller asked for (for example Subscription from an "Upgrade" action).
  const [lastOpen, setLastOpen] = useState(open);
  if (open !== lastOpen) {
    setLastOpen(open);
    if (open) setTab(defaultTab);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="gap-5 sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Account Settings</DialogTitle>
          <DialogDescription>
            Manage your profile, writing preferences, plan and notifications.
          </DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={(value) => setTab(value as SettingsTab)}>
          <TabsList className={cn('grid w-full', isAdmin ? 'grid-cols-6' : 'grid-cols-5')}>
            <TabsTrigger value="profile">
              <UserIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">Profile</span>
            </TabsTrigger>
            <TabsTrigger value="preferences">
              <SlidersHorizontalIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">Preferences</span>
            </TabsTrigger>
            <TabsTrigger value="subscription">
              <CreditCardIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">Subscription</span>
            </TabsTrigger>
            <TabsTrigger value="notifications">
              <BellIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">Notifications</span>
            </TabsTrigger>
            <TabsTrigger value="commands">
              <WandSparklesIcon aria-hidden="true" />
              <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">AI commands</span>
            </TabsTrigger>
            {isAdmin ? (
              <TabsTrigger value="ai">
                <SparklesIcon aria-hidden="true" />
                <span className="sr-only sm:not-sr-only sm:whitespace-nowrap">AI</span>
              </TabsTrigger>
            ) : null}
          </TabsList>
          <div className="min-h-[22rem] pt-2">
            <TabsContent value="profile">
              <ProfileTab />
            </TabsContent>
            <TabsContent value="preferences">
              <PreferencesTab />
            </TabsContent>
            <TabsContent value="subscription">
              <SubscriptionTab />
            </TabsContent>
            <TabsContent value="notifications">
              <NotificationsTab />
            </TabsContent>
            <TabsContent value="commands">
              <AiCommandsSettings />
            </TabsContent>
            {isAdmin ? (
              <TabsContent value="ai">
                <AiSettingsTab />
              </TabsContent>
            ) : null}
          </div>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

function ProfileTab() {
  const { user, updateUser, signOut } = useAuth();
  const [name, setName] = useState(user?.user_metadata.full_name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [saving, setSaving] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || saving) return;
    const update: { email?: string; data?: { full_name: string } } = {};
    const trimmedName = name.trim();
    const trimmedEmail = email.trim().toLowerCase();
    if (trimmedName !== (user.user_metadata.full_name ?? '')) update.data = { full_name: trimmedName };
    if (trimmedEmail !== user.email) update.email = trimmedEmail;
    if (!update.data && !update.email) {
      toast({ title: 'Profile saved', description: 'Nothing changed.' });
      return;
    }
    setSaving(true);
    const { error, user: saved } = await updateUser(update);
    setSaving(false);
    if (error) {
      toast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' });
      return;
    }
    if (update.email && saved && saved.email !== update.email) {
      // With e-mail delivery the change waits for the link sent to the new address.
      setEmail(saved.email);
      toast({
        title: 'Check your email',
        description: `We sent a confirmation link to ${update.email}. Your address changes once you open it.`,
      });
    } else {
      toast({ title: 'Profile updated', description: 'Your profile has been saved.' });
    }
  };

  return (
    <form className="grid gap-5" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <Label htmlFor="settings-name">Display name</Label>
        <Input
          id="settings-name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Your name"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="settings-email">Email</Label>
        <Input
          id="settings-email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <p className="text-xs text-muted-foreground">
          Changing your e-mail may require confirming the new address.
        </p>
      </div>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-between">
        <Button
          type="button"
          variant="outline"
          disabled={signingOut}
          onClick={async () => {
            setSigningOut(true);
            await signOut();
            setSigningOut(false);
          }}
        >
          <LogOutIcon aria-hidden="true" />
          Sign Out
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Save Profile
        </Button>
      </div>
    </form>
  );
}

/** Saves one change at a time, right away; shows 'Update Failed' when the server refuses. */
function useSaveSetting(kind: 'Preferences' | 'Notifications') {
  const mutation = useUpdateUserSettings();
  const save = (update: UpdateUserSettings) =>
    mutation.mutate(update, {
      onError: (error) => {
        toast({
          title: 'Update Failed',
          description: `${kind} were not saved: ${errorMessage(error)}`,
          variant: 'destructive',
        });
      },
    });
  return { save, status: mutation.isPending ? 'saving' : mutation.isSuccess ? 'saved' : 'idle' } as const;
}

function SaveStatus({ status }: { status: 'saving' | 'saved' | 'idle' }) {
  return (
    <p
      className="min-h-5 text-right text-xs text-muted-foreground"
      aria-live="polite"
      data-testid="settings-save-status"
    >
      {status === 'saving' ? 'Saving…' : status === 'saved' ? 'All changes saved' : ''}
    </p>
  );
}

function SettingRow({
  title,
  description,
  control,
}: {
  title: ReactNode;
  description: string;
  control: ReactNode;
}) {
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <div className="grid gap-0.5">
        {title}
        <p className="text-xs text-muted-foreground">{description}</p>
      </div>
      {control}
    </div>
  );
}

function SwitchRow({
  label,
  description,
  checked,
  onCheckedChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <SettingRow
      title={<Label htmlFor={id}>{label}</Label>}
      description={description}
      control={<Switch id={id} checked={checked} onCheckedChange={onCheckedChange} />}
    />
  );
}

const THEME_OPTIONS: { value: ThemePreference; label: string; icon: typeof SunIcon }[] = [
  { value: 'light', label: 'Light', icon: SunIcon },
  { value: 'dark', label: 'Dark', icon: MoonIcon },
  { value: 'system', label: 'System', icon: MonitorIcon },
];

function PreferencesTab() {
  const { preferences, isLoading, loaded, isError } = useUserSettings();
  const { theme, setTheme } = useTheme();
  const { save, status } = useSaveSetting('Preferences');
  const fontSizeId = useId();
  const fontFamilyId = useId();
  const aiChangesId = useId();
  const ghostId = useId();

  const set = <K extends keyof Preferences>(key: K, value: Preferences[K]) =>
    save({ preferences: { [key]: value } as Partial<Preferences> });

  if (isLoading) return <SettingsSkeleton rows={5} />;
  if (isError && !loaded) return <SettingsLoadError what="Preferences" />;

  return (
    <div className="grid gap-1">
      <div className="grid gap-2 pb-3">
        <Label id="theme-label">Theme</Label>
        <ChoiceGroup
          aria-labelledby="theme-label"
          className="grid grid-cols-3 gap-2"
          value={theme}
          onValueChange={(value) => {
            // Applied app-wide at once, then saved for the user's other browsers.
            setTheme(value as ThemePreference);
            set('theme', value as ThemePreference);
          }}
        >
          {THEME_OPTIONS.map(({ value, label, icon: Icon }) => (
            <ChoiceItem
              key={value}
              value={value}
              className={cn(
                'flex flex-col items-center gap-1.5 rounded-lg border px-3 py-3 text-sm font-medium transition-colors hover:bg-accent',
                'data-[state=checked]:border-primary data-[state=checked]:bg-primary/5 data-[state=checked]:text-primary data-[state=checked]:ring-1 data-[state=checked]:ring-primary',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {label}
            </ChoiceItem>
          ))}
        </ChoiceGroup>
      </div>
      <Separator />
      <SettingRow
        title={<Label htmlFor={fontSizeId}>Font size</Label>}
        description="Default text size in the editor."
        control={
          <Select
            value={preferences.fontSize}
            onValueChange={(v) => set('fontSize', v as Preferences['fontSize'])}
          >
            <SelectTrigger id={fontSizeId} className="w-32">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="small">Small</SelectItem>
              <SelectItem value="medium">Medium</SelectItem>
              <SelectItem value="large">Large</SelectItem>
            </SelectContent>
          </Select>
        }
      />
      <SettingRow
        title={<Label htmlFor={fontFamilyId}>Font family</Label>}
        description="Typeface used for your documents."
        control={
          <Select
            value={preferences.fontFamily}
            onValueChange={(v) => set('fontFamily', v as Preferences['fontFamily'])}
          >
            <SelectTrigger id={fontFamilyId} className="w-32">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="inter">Inter</SelectItem>
              <SelectItem value="serif">Serif</SelectItem>
              <SelectItem value="mono">Mono</SelectItem>
            </SelectContent>
          </Select>
        }
      />
      <Separator />
      <SwitchRow
        label="Auto-save"
        description="Save your changes automatically while you write. When off, your changes stay in this browser until you press Save (Ctrl+S)."
        checked={preferences.autoSave}
        onCheckedChange={(v) => set('autoSave', v)}
      />
      <SwitchRow
        label="Show word count"
        description="Show live word, character and reading-time counts."
        checked={preferences.showWordCount}
        onCheckedChange={(v) => set('showWordCount', v)}
      />
      <SwitchRow
        label="Focus mode by default"
        description="Open documents with the side panel hidden."
        checked={preferences.focusModeDefault}
        onCheckedChange={(v) => set('focusModeDefault', v)}
      />
      <SettingRow
        title={<Label htmlFor={aiChangesId}>AI changes</Label>}
        description="How an accepted AI answer reaches your text: as suggestions you review one by one, or written at once (one undo step)."
        control={
          <Select
            value={preferences.aiChanges}
            onValueChange={(v) => set('aiChanges', v as Preferences['aiChanges'])}
          >
            <SelectTrigger id={aiChangesId} className="w-40">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="suggest">As suggestions</SelectItem>
              <SelectItem value="apply">Apply directly</SelectItem>
            </SelectContent>
          </Select>
        }
      />
      <SettingRow
        title={<Label htmlFor={ghostId}>Inline completion</Label>}
        description="When you pause at the end of a paragraph, a continuation appears in grey. Tab keeps it, Ctrl+→ keeps a word, Esc dismisses it."
        control={
          <Select
            value={preferences.ghostCompletion}
            onValueChange={(v) => set('ghostCompletion', v as Preferences['ghostCompletion'])}
          >
            <SelectTrigger id={ghostId} className="w-40">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="off">Off</SelectItem>
              <SelectItem value="quick">After 0.4 s</SelectItem>
              <SelectItem value="normal">After 0.7 s</SelectItem>
              <SelectItem value="relaxed">After 1.2 s</SelectItem>
            </SelectContent>
          </Select>
        }
      />
      <SaveStatus status={status} />
    </div>
  );
}

function NotificationsTab() {
  const { notifications, isLoading, loaded, isError } = useUserSettings();
  const { save, status } = useSaveSetting('Notifications');
  const set = (key: keyof NotificationSettings, value: boolean) => save({ notifications: { [key]: value } });

  if (isLoading) return <SettingsSkeleton rows={3} />;
  if (isError && !loaded) return <SettingsLoadError what="Notifications" />;

  return (
    <div className="grid gap-1">
      <SwitchRow
        label="Marketing emails"
        description="Tips, offers and news about Quillwright."
        checked={notifications.marketing}
        onCheckedChange={(v) => set('marketing', v)}
      />
      <Separator />
      <SwitchRow
        label="Product updates"
        description="New features and improvements, about once a month."
        checked={notifications.updates}
        onCheckedChange={(v) => set('updates', v)}
      />
      <Separator />
      <SwitchRow
        label="Security alerts"
        description="Sign-ins from new devices and changes to your account."
        checked={notifications.security}
        onCheckedChange={(v) => set('security', v)}
      />
      <SaveStatus status={status} />
    </div>
  );
}

/** The settings could not be read: say so and offer a retry, rather than show defaults as if they were saved. */
function SettingsLoadError({ what }: { what: 'Preferences' | 'Notifications' }) {
  const { error, refetch, isFetching } = useUserSettings();
  return (
    <div role="alert" className="grid gap-3 py-2 text-sm" data-testid="settings-load-error">
      <p className="font-medium">{what} could not be loaded.</p>
      <p className="text-xs text-muted-foreground">{errorMessage(error)}</p>
      <div>
        <Button variant="outline" size="sm" disabled={isFetching} onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    </div>
  );
}

function SettingsSkeleton({ rows }: { rows: number }) {
  return (
    <div className="grid gap-4" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center justify-between gap-4">
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-64 max-w-full" />
          </div>
          <Skeleton className="h-5 w-9 rounded-full" />
        </div>
      ))}
    </div>
  );
}
