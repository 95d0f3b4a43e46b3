import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckIcon, CopyIcon, KeyRoundIcon, Loader2Icon, Trash2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_NAME_MAX_LENGTH } from '@shared/constants';
import {
  API_TOKEN_SCOPES,
  type ApiToken,
  type ApiTokenCreated,
  type ApiTokenScope,
} from '@shared/schemas/api-tokens';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Separator } from '@client/components/ui/separator';
import { Skeleton } from '@client/components/ui/skeleton';
import { Switch } from '@client/components/ui/switch';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from '@client/features/auth';
import { errorMessage } from '@client/lib/api';
import { timeAgo } from '@client/lib/time-ago';
import { API_TOKENS_PATH, createApiToken, listApiTokens, revokeApiToken, saveApiTokenSettings } from './api';
import { ConnectedApps } from './ConnectedApps';
import { SCOPE_TEXT } from './scope-text';

const NO_EXPIRY = 'never';
const EXPIRY_LABEL: Record<number, string> = { 7: '7 days', 30: '30 days', 90: '90 days', 365: '1 year' };

/**
 * Account Settings → API tokens: make a token (its secret shown once, to copy), see each token's scopes and when
 * it was made, last used and expires, and revoke it. An admin also finds the instance's switch here.
 */
export function ApiTokensSettings() {
  const { user } = useAuth();
  const isAdmin = user?.role === 'admin';
  const queryClient = useQueryClient();
  const queryKey = [API_TOKENS_PATH, user?.id];
  // Scripts change the last-used times, so each opening asks again.
  const tokens = useQuery({
    queryKey,
    queryFn: listApiTokens,
    enabled: Boolean(user?.id),
    refetchOnMount: 'always',
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [API_TOKENS_PATH] });
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);

  const revoke = useMutation({
    mutationFn: (token: ApiToken) => revokeApiToken(token.id),
    onSuccess: (_nothing, token) => {
      toast({ title: 'Token revoked', description: `“${token.name}” no longer works.` });
      if (created?.id === token.id) setCreated(null);
      void refresh();
    },
    onError: (error) =>
      toast({ title: 'Revoking failed', description: errorMessage(error), variant: 'destructive' }),
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => saveApiTokenSettings({ enabled }),
    onSuccess: () => void refresh(),
    onError: (error) =>
      toast({ title: 'Saving failed', description: errorMessage(error), variant: 'destructive' }),
  });

  const enabled = tokens.data?.enabled ?? true;

  return (
    <div className="grid gap-5" data-testid="api-tokens-settings">
      <div className="grid gap-1">
        <h3 className="text-sm font-medium">API tokens</h3>
        <p className="text-xs text-muted-foreground">
          Let scripts and other programs use your documents through the REST API. A token acts as you, limited
          to its scopes. Send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>.{' '}
          <a className="underline underline-offset-2" href="/docs/api" target="_blank" rel="noreferrer">
            API reference
          </a>
        </p>
      </div>

      {isAdmin ? (
        <div className="flex items-center justify-between gap-3 rounded-md border px-3 py-2.5">
          <Label htmlFor="api-tokens-enabled" className="grid gap-0.5 font-normal">
            <span className="text-sm font-medium">Allow API tokens on this server</span>
            <span className="text-xs text-muted-foreground">
              When off, every request with a token is refused. Tokens are kept.
            </span>
          </Label>
          <Switch
            id="api-tokens-enabled"
            checked={enabled}
            disabled={tokens.isLoading || toggle.isPending}
            onCheckedChange={(checked) => toggle.mutate(checked)}
          />
        </div>
      ) : null}

      {!tokens.isLoading && !enabled ? (
        <p role="status" className="rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground">
          API tokens are turned off on this server.
        </p>
      ) : null}

      {created ? (
        <NewTokenNotice token={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateTokenForm disabled={!enabled} onCreated={setCreated} onSaved={refresh} />
      )}

      <Separator />

      <section className="grid gap-2" aria-labelledby="api-token-list-heading">
        <h3 id="api-token-list-heading" className="text-sm font-medium">
          Your tokens
        </h3>
        {tokens.isLoading ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : tokens.isError ? (
          <p role="alert" className="text-sm text-destructive">
            Tokens could not be loaded: {errorMessage(tokens.error)}
          </p>
        ) : tokens.data?.tokens.length ? (
          <ul className="grid divide-y rounded-md border" data-testid="api-token-list">
            {tokens.data.tokens.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                revoking={revoke.isPending && revoke.variables?.id === token.id}
                onRevoke={() => revoke.mutate(token)}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">You have no API tokens.</p>
        )}
      </section>

      <Separator />

      <ConnectedApps />
    </div>
  );
}

function CreateTokenForm({
  disabled,
  onCreated,
  onSaved,
}: {
  disabled: boolean;
  onCreated(token: ApiTokenCreated): void;
  onSaved(): void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [expiry, setExpiry] = useState<string>('30');
  const create = useMutation({
    mutationFn: () =>
      createApiToken({
        name,
        scopes,
        expires_in_days: expiry === NO_EXPIRY ? null : Number(expiry),
      }),
    onSuccess: (token) => {
      setName('');
      onCreated(token);
      onSaved();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggleScope = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) =>
      on
        ? API_TOKEN_SCOPES.filter((s) => s === scope || current.includes(s))
        : current.filter((s) => s !== scope),
    );

  return (
    <form className="grid gap-3" onSubmit={submit} aria-label="New API token">
      <div className="grid gap-3 sm:grid-cols-[1fr_11rem]">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-name`}>Token name</Label>
          <Input
            id={`${id}-name`}
            value={name}
            maxLength={API_TOKEN_NAME_MAX_LENGTH}
            placeholder="Backup script"
            required
            disabled={disabled}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-expiry`}>Expires</Label>
          <Select value={expiry} onValueChange={setExpiry} disabled={disabled}>
            <SelectTrigger id={`${id}-expiry`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {API_TOKEN_EXPIRY_DAYS.map((days) => (
                <SelectItem key={days} value={String(days)}>
                  In {EXPIRY_LABEL[days] ?? `${days} days`}
                </SelectItem>
              ))}
              <SelectItem value={NO_EXPIRY}>Never</SelectItem>
            </SelectContent>
          </Select>
        </div>
      </div>
      <fieldset className="grid gap-2" disabled={disabled}>
        <legend className="mb-1 text-sm font-medium">Scopes</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {API_TOKEN_SCOPES.map((scope) => (
            <label
              key={scope}
              className="flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 has-[:checked]:border-primary"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-primary"
                checked={scopes.includes(scope)}
                onChange={(event) => toggleScope(scope, event.target.checked)}
              />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{SCOPE_TEXT[scope].label}</span>
                <span className="text-xs text-muted-foreground">{SCOPE_TEXT[scope].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {create.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(create.error)}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={disabled || create.isPending || scopes.length === 0 || !name.trim()}>
          {create.isPending ? (
            <Loader2Icon className="animate-spin" aria-hidden="true" />
          ) : (
            <KeyRoundIcon aria-hidden="true" />
          )}
          Create token
        </Button>
      </div>
    </form>
  );
}

function NewTokenNotice({ token, onDone }: { token: ApiTokenCreated; onDone(): void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
    } catch {
      toast({
        title: 'Copying failed',
        description: 'Select the token and copy it yourself.',
        variant: 'destructive',
      });
    }
  };
  return (
    <div
      className="grid gap-2 rounded-md border border-primary/40 bg-primary/5 p-3"
      data-testid="new-api-token"
    >
      <Label htmlFor={id} className="text-sm font-medium">
        Copy your new token “{token.name}” now. You won't be able to see it again.
      </Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={token.token}
          className="font-mono text-xs"
          onFocus={(event) => event.target.select()}
        />
        <Button type="button" variant="outline" onClick={() => void copy()}>
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <div>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function TokenRow({ token, revoking, onRevoke }: { token: ApiToken; revoking: boolean; onRevoke(): void }) {
  const expires = token.expires_at ? new Date(token.expires_at) : null;
  // When the list was drawn: a token that expires while the settings are open shows it on the next opening.
  const [drawnAt] = useState(() => Date.now());
  const expired = expires !== null && expires.getTime() <= drawnAt;
  return (
    <li className="flex items-center gap-3 px-3 py-2.5" data-testid="api-token-row">
      <KeyRoundIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="flex flex-wrap items-center gap-1.5 text-sm font-medium">
          <span className="truncate">{token.name}</span>
          <span className="font-mono text-xs font-normal text-muted-foreground">…{token.hint}</span>
          {token.scopes.map((scope) => (
            <Badge key={scope} variant="secondary">
              {SCOPE_TEXT[scope].label}
            </Badge>
          ))}
          {expired ? <Badge variant="destructive">Expired</Badge> : null}
        </p>
        <p className="text-xs text-muted-foreground">
          Created {timeAgo(new Date(token.created_at))}
          {' · '}
          {token.last_used_at ? `Last used ${timeAgo(new Date(token.last_used_at))}` : 'Never used'}
          {' · '}
          {expires ? `${expired ? 'Expired' : 'Expires'} ${expires.toLocaleDateString()}` : 'Never expires'}
        </p>
      </div>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        aria-label={`Revoke ${token.name}`}
        disabled={revoking}
        onClick={onRevoke}
      >
        <Trash2Icon aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}
