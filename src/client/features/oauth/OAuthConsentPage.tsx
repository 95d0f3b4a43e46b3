import { useMutation, useQuery } from '@tanstack/react-query';
import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { PRODUCT_NAME } from '@shared/constants';
import type { ApiTokenScope } from '@shared/schemas/api-tokens';
import type { OAuthConsent, OAuthDecision, OAuthDecisionResult } from '@shared/schemas/oauth';
import { Button } from '@client/components/ui/button';
import { AuthLayout, useAuth, useAuthDialog } from '@client/features/auth';
import { apiRequest, errorMessage } from '@client/lib/api';

const AUTHORIZE_API_PATH = '/api/oauth/authorize';

/** What each scope lets the app do, in the user's words. */
const SCOPE_WORDS: Record<ApiTokenScope, string> = {
  read: 'See your documents: list, read, search and export them, and their versions',
  write: 'Change your documents: create, edit and delete them',
  comment: 'Comment on passages of your documents',
  suggest: 'Suggest changes to your documents, which you accept or reject',
};

/**
 * `/oauth/authorize`: the authorization endpoint an app (an AI agent connecting over MCP) sends the browser to.
 * Signed out, it asks to sign in first and stays on this page. Signed in, it shows the app's name, where the
 * answer goes and what the app asks to do; Allow or Deny goes back to the app. A request the server will not
 * take (an unknown app, an address the app did not register) is shown as such, and the browser stays here.
 */
export function OAuthConsentPage() {
  const search = useSearch();
  const { user, loading } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const params = Object.fromEntries(new URLSearchParams(search));
  // The scopes the person unticked: the app gets the others.
  const [unticked, setUnticked] = useState<ReadonlySet<ApiTokenScope>>(new Set());

  const consent = useQuery({
    queryKey: [AUTHORIZE_API_PATH, search, user?.id],
    queryFn: () => apiRequest<OAuthConsent>('GET', `${AUTHORIZE_API_PATH}?${search}`),
    enabled: Boolean(user?.id),
    retry: false,
    staleTime: Infinity,
  });
  const decide = useMutation({
    mutationFn: (allow: boolean) =>
      apiRequest<OAuthDecisionResult>('POST', AUTHORIZE_API_PATH, {
        ...params,
        allow,
        ...(allow
          ? { granted_scopes: (consent.data?.scopes ?? []).filter((scope) => !unticked.has(scope)) }
          : {}),
      } satisfies OAuthDecision),
    onSuccess: ({ redirect_to }) => window.location.assign(redirect_to),
  });

  if (loading) {
    return (
      <AuthLayout title="Connect an app">
        <Loader2Icon className="mx-auto size-5 animate-spin text-muted-foreground" aria-label="Loading" />
      </AuthLayout>
    );
  }

  if (!user) {
    return (
      <AuthLayout
        title="Connect an app"
        description={`An app is asking to use your ${PRODUCT_NAME} account. Sign in to see what it asks for.`}
      >
        <Button className="w-full" onClick={() => openAuthDialog('signin')}>
          Sign in
        </Button>
      </AuthLayout>
    );
  }

  if (consent.isError) {
    return (
      <AuthLayout title="This request cannot be used">
        <p role="alert" className="text-sm text-muted-foreground">
          {errorMessage(consent.error)}
        </p>
      </AuthLayout>
    );
  }

  if (!consent.data) {
    return (
      <AuthLayout title="Connect an app">
        <Loader2Icon className="mx-auto size-5 animate-spin text-muted-foreground" aria-label="Loading" />
      </AuthLayout>
    );
  }

  const { client_name: clientName, redirect_host: redirectHost, scopes } = consent.data;
  const answered = decide.isPending || decide.isSuccess;
  const granted = scopes.filter((scope) => !unticked.has(scope));
  const toggle = (scope: ApiTokenScope, ticked: boolean) =>
    setUnticked((current) => {
      const next = new Set(current);
      if (ticked) next.delete(scope);
      else next.add(scope);
      return next;
    });
  return (
    <AuthLayout
      title={`Allow ${clientName} to use your account?`}
      description={
        <>
          Signed in as <span className="font-medium text-foreground">{user.email}</span>
        </>
      }
    >
      <div className="grid gap-4" data-testid="oauth-consent">
        <div className="grid gap-2">
          <p className="text-sm font-medium">{clientName} will be able to:</p>
          <ul className="grid gap-1.5">
            {scopes.map((scope) => (
              <li key={scope} data-testid="oauth-scope">
                <label className="flex cursor-pointer items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 shrink-0 accent-primary"
                    checked={!unticked.has(scope)}
                    disabled={answered}
                    onChange={(event) => toggle(scope, event.target.checked)}
                  />
                  <span>{SCOPE_WORDS[scope]}</span>
                </label>
              </li>
            ))}
          </ul>
          {scopes.length > 1 ? (
            <p className="text-xs text-muted-foreground">Untick what you do not want to allow.</p>
          ) : null}
        </div>
        <p className="text-xs text-muted-foreground">
          Your answer goes back to{' '}
          <span className="font-medium break-all text-foreground">{redirectHost}</span>. Only allow apps you
          trust. You can disconnect it at any time in Account Settings → API tokens.
        </p>
        {decide.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(decide.error)}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" disabled={answered} onClick={() => decide.mutate(false)}>
            Deny
          </Button>
          <Button disabled={answered || granted.length === 0} onClick={() => decide.mutate(true)}>
            {decide.isPending && decide.variables ? (
              <Loader2Icon className="animate-spin" aria-hidden="true" />
            ) : null}
            Allow
          </Button>
        </div>
      </div>
    </AuthLayout>
  );
}
