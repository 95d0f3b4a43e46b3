import {
  BellIcon,
  CreditCardIcon,
  KeyRoundIcon,
  Loader2Icon,
  LogOutIcon,
  MonitorIcon,
  MoonIcon,
  SlidersHorizontalIcon,
  SparklesIcon,
  SunIcon,
  UserIcon,
  WandSparklesIcon,
  type LucideIcon,
} from 'lucide-react';
import { Fragment, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { NotificationSettings, Preferences, UpdateUserSettings } from '@shared/settings-defaults';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { PasswordField } from '@client/components/PasswordField';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Separator } from '@client/components/ui/separator';
import { Skeleton } from '@client/components/ui/skeleton';
import { Switch } from '@client/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from '@client/features/auth';
import { SubscriptionTab } from '@client/features/billing';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import { useUpdateUserSettings, useUserSettings } from './queries';
import { AiSettingsTab } from './ai/AiSettingsTab';
import { AiCommandsSettings } from './ai-commands/AiCommandsSettings';
import { ApiTokensSettings } from './api-tokens/ApiTokensSettings';
import { useTheme, type ThemePreference } from './theme';
import { AccountSecurity } from './account/AccountSecurity';
import { ClaimInstanceCard } from './account/ClaimInstanceCard';

export type SettingsTab =
  'profile' | 'preferences' | 'subscription' | 'notifications' | 'commands' | 'tokens' | 'ai';

/** The dialog's tabs, in order; the AI tab (providers, keys, allowance) is for instance admins only. */
const SETTINGS_TABS: { value: SettingsTab; label: string; Icon: LucideIcon }[] = [
  { value: 'profile', label: 'Profile', Icon: UserIcon },
  { value: 'preferences', label: 'Preferences', Icon: SlidersHorizontalIcon },
  { value: 'subscription', label: 'Subscription', Icon: CreditCardIcon },
  { value: 'notifications', label: 'Notifications', Icon: BellIcon },
  { value: 'commands', label: 'AI commands', Icon: WandSparklesIcon },
  { value: 'tokens', label: 'API tokens', Icon: KeyRoundIcon },
  { value: 'ai', label: 'AI', Icon: SparklesIcon },
];

export interface AccountSettingsDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  defaultTab?: SettingsTab;
}

/** The account settings dialog: Profile, Preferences, Subscription, Notifications, AI commands, API tokens. */
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

  const tabs = SETTINGS_TABS.filter((entry) => isAdmin || entry.value !== 'ai');
  // Seven names and their icons do not fit the dialog's width in one row; the names alone do.
  const iconClass = tabs.length > 6 ? 'hidden' : 'hidden sm:block';

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* One size for every tab (the tallest fits, a longer one scrolls inside): the dialog does not jump
          when the writer moves between tabs. */}
      <DialogContent
        className="flex h-[min(42rem,calc(100dvh-2rem))] flex-col gap-4 overflow-hidden sm:max-w-3xl"
        data-testid="settings-dialog"
      >
        <DialogHeader>
          <DialogTitle>Account Settings</DialogTitle>
          <DialogDescription>
            Manage your profile, writing preferences, plan and notifications.
          </DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={(value) => setTab(value as SettingsTab)} className="min-h-0 flex-1">
          {/* Every tab shows its whole name: on a phone three to a row, in smaller type and without the icon;
              from sm up one row, icon and name. */}
          <TabsList className="grid h-auto w-full shrink-0 grid-cols-3 gap-0.5 sm:flex">
            {tabs.map(({ value, label, Icon }) => (
              <TabsTrigger
                key={value}
                value={value}
                className="h-8 min-w-0 px-1 text-xs sm:flex-1 sm:px-2 sm:text-sm"
              >
                <Icon aria-hidden="true" className={iconClass} />
                <span>{label}</span>
              </TabsTrigger>
            ))}
          </TabsList>
          <div className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1 pt-2">
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
            <TabsContent value="tokens">
              <ApiTokensSettings />
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
  const [currentPassword, setCurrentPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || saving) return;
    const update: { email?: string; current_password?: string; data?: { full_name: string } } = {};
    const trimmedName = name.trim();
    const trimmedEmail = email.trim().toLowerCase();
    if (trimmedName !== (user.user_metadata.full_name ?? '')) update.data = { full_name: trimmedName };
    if (trimmedEmail !== user.email) {
      update.email = trimmedEmail;
      update.current_password = currentPassword;
    }
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
    setCurrentPassword('');
    if (update.email && saved && saved.email !== update.email) {
      // The change waits for the link sent to the new address.
      setEmail(saved.email);
      toast({
        title: 'Check your email',
        description: `We sent a confirmation link to ${update.email}. Your address changes once you open it.`,
      });
    } else {
      toast({ title: 'Profile updated', description: 'Your profile has been saved.' });
    }
  };

  const emailChanged = Boolean(user) && email.trim().toLowerCase() !== user?.email;

  return (
    <div className="grid gap-6">
      <ClaimInstanceCard />
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
            A new address takes effect once you open the link we send to it; your current address is told.
          </p>
        </div>
        {emailChanged ? (
          <PasswordField
            id="settings-current-password"
            label="Current password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={setCurrentPassword}
            hint="Needed to change your e-mail address."
          />
        ) : null}
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
      <AccountSecurity />
    </div>
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

type ChoicePreference = 'fontSize' | 'fontFamily' | 'aiChanges' | 'ghostCompletion';
type SwitchPreference = 'autoSave' | 'showWordCount' | 'focusModeDefault';

interface ChoiceRowSpec<K extends ChoicePreference = ChoicePreference> {
  key: K;
  label: string;
  description: string;
  options: { value: Preferences[K]; label: string }[];
  /** The trigger's width class: wide enough for the longest option. */
  width: string;
}

interface SwitchRowSpec<K extends string> {
  key: K;
  label: string;
  description: string;
}

const TEXT_ROWS: ChoiceRowSpec[] = [
  {
    key: 'fontSize',
    label: 'Font size',
    description: 'Default text size in the editor.',
    options: [
      { value: 'small', label: 'Small' },
      { value: 'medium', label: 'Medium' },
      { value: 'large', label: 'Large' },
    ],
    width: 'w-32',
  },
  {
    key: 'fontFamily',
    label: 'Font family',
    description: 'Typeface used for your documents.',
    options: [
      { value: 'inter', label: 'Inter' },
      { value: 'serif', label: 'Serif' },
      { value: 'mono', label: 'Mono' },
    ],
    width: 'w-32',
  },
];

const EDITOR_SWITCHES: SwitchRowSpec<SwitchPreference>[] = [
  {
    key: 'autoSave',
    label: 'Auto-save',
    description:
      'Save your changes automatically while you write. When off, your changes stay in this browser until you press Save (Ctrl+S).',
  },
  {
    key: 'showWordCount',
    label: 'Show word count',
    description: 'Show live word, character and reading-time counts.',
  },
  {
    key: 'focusModeDefault',
    label: 'Focus mode by default',
    description: 'Open documents with the side panel hidden.',
  },
];

const AI_ROWS: ChoiceRowSpec[] = [
  {
    key: 'aiChanges',
    label: 'AI changes',
    description:
      'How an accepted AI answer reaches your text: as suggestions you review one by one, or written at once (one undo step).',
    options: [
      { value: 'suggest', label: 'As suggestions' },
      { value: 'apply', label: 'Apply directly' },
    ],
    width: 'w-40',
  },
  {
    key: 'ghostCompletion',
    label: 'Inline completion',
    description:
      'When you pause at the end of a paragraph, a continuation appears in grey. Tab keeps it, Ctrl+→ keeps a word, Esc dismisses it.',
    options: [
      { value: 'off', label: 'Off' },
      { value: 'quick', label: 'After 0.4 s' },
      { value: 'normal', label: 'After 0.7 s' },
      { value: 'relaxed', label: 'After 1.2 s' },
    ],
    width: 'w-40',
  },
];

type MailSwitch = 'marketing' | 'updates' | 'security';

/** Comment notifications: each kind in the app (the header's bell) and in the e-mail digest. */
const COMMENT_NOTIFICATION_ROWS: {
  inApp: keyof NotificationSettings;
  email: keyof NotificationSettings;
  label: string;
  description: string;
}[] = [
  {
    inApp: 'mentionsInApp',
    email: 'mentionsEmail',
    label: 'Mentions',
    description: 'Someone mentions you in a comment.',
  },
  {
    inApp: 'repliesInApp',
    email: 'repliesEmail',
    label: 'Replies',
    description: 'Someone replies in a thread you wrote in.',
  },
  {
    inApp: 'commentsInApp',
    email: 'commentsEmail',
    label: 'Comments on my documents',
    description: 'Someone starts a thread on a document you own.',
  },
];

const NOTIFICATION_SWITCHES: SwitchRowSpec<MailSwitch>[] = [
  { key: 'marketing', label: 'Marketing emails', description: 'Tips, offers and news about Quillwright.' },
  {
    key: 'updates',
    label: 'Product updates',
    description: 'New features and improvements, about once a month.',
  },
  {
    key: 'security',
    label: 'Security alerts',
    description: 'Sign-ins from new devices and changes to your account.',
  },
];

function ChoiceRow({
  spec,
  value,
  onValueChange,
}: {
  spec: ChoiceRowSpec;
  value: string;
  onValueChange(value: string): void;
}) {
  const id = useId();
  return (
    <SettingRow
      title={<Label htmlFor={id}>{spec.label}</Label>}
      description={spec.description}
      control={
        <Select value={value} onValueChange={onValueChange}>
          <SelectTrigger id={id} className={spec.width}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {spec.options.map((option) => (
              <SelectItem key={option.value} value={option.value}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      }
    />
  );
}

function PreferencesTab() {
  const { preferences, isLoading, loaded, isError } = useUserSettings();
  const { theme, setTheme } = useTheme();
  const { save, status } = useSaveSetting('Preferences');

  const set = <K extends keyof Preferences>(key: K, value: Preferences[K]) =>
    save({ preferences: { [key]: value } as Partial<Preferences> });
  const choiceRow = (spec: ChoiceRowSpec) => (
    <ChoiceRow
      key={spec.key}
      spec={spec}
      value={preferences[spec.key]}
      onValueChange={(value) => set(spec.key, value as Preferences[typeof spec.key])}
    />
  );

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
      {TEXT_ROWS.map(choiceRow)}
      <Separator />
      {EDITOR_SWITCHES.map(({ key, label, description }) => (
        <SwitchRow
          key={key}
          label={label}
          description={description}
          checked={preferences[key]}
          onCheckedChange={(v) => set(key, v)}
        />
      ))}
      {AI_ROWS.map(choiceRow)}
      <SaveStatus status={status} />
    </div>
  );
}

function NotificationsTab() {
  const { notifications, isLoading, loaded, isError } = useUserSettings();
  const { save, status } = useSaveSetting('Notifications');
  const set = (key: keyof NotificationSettings, value: boolean) => save({ notifications: { [key]: value } });

  if (isLoading) return <SettingsSkeleton rows={6} />;
  if (isError && !loaded) return <SettingsLoadError what="Notifications" />;

  return (
    <div className="grid gap-1">
      {NOTIFICATION_SWITCHES.map(({ key, label, description }, index) => (
        <Fragment key={key}>
          {index > 0 ? <Separator /> : null}
          <SwitchRow
            label={label}
            description={description}
            checked={notifications[key]}
            onCheckedChange={(v) => set(key, v)}
          />
        </Fragment>
      ))}
      <Separator />
      <h3 className="pt-3 text-sm font-semibold">Comments</h3>
      {COMMENT_NOTIFICATION_ROWS.map((row) => (
        <CommentNotificationRow
          key={row.inApp}
          {...row}
          inAppOn={notifications[row.inApp]}
          emailOn={notifications[row.email]}
          onChange={set}
        />
      ))}
      <SaveStatus status={status} />
    </div>
  );
}

/** One kind of comment notification, with its two switches: in the app, and in the e-mail digest. */
function CommentNotificationRow({
  inApp,
  email,
  label,
  description,
  inAppOn,
  emailOn,
  onChange,
}: {
  inApp: keyof NotificationSettings;
  email: keyof NotificationSettings;
  label: string;
  description: string;
  inAppOn: boolean;
  emailOn: boolean;
  onChange: (key: keyof NotificationSettings, value: boolean) => void;
}) {
  const id = useId();
  return (
    <SettingRow
      title={<span className="text-sm font-medium">{label}</span>}
      description={description}
      control={
        <div className="flex shrink-0 items-center gap-4">
          <div className="flex items-center gap-2">
            <Switch
              id={`${id}-app`}
              checked={inAppOn}
              onCheckedChange={(v) => onChange(inApp, v)}
              aria-label={`${label} in the app`}
            />
            <Label htmlFor={`${id}-app`} className="text-xs text-muted-foreground">
              In app
            </Label>
          </div>
          <div className="flex items-center gap-2">
            <Switch
              id={`${id}-mail`}
              checked={emailOn}
              onCheckedChange={(v) => onChange(email, v)}
              aria-label={`${label} by e-mail`}
            />
            <Label htmlFor={`${id}-mail`} className="text-xs text-muted-foreground">
              E-mail
            </Label>
          </div>
        </div>
      }
    />
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
