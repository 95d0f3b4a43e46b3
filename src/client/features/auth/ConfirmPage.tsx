import { CheckCircle2Icon, Loader2Icon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useAuthDialog } from './auth-dialog';
import { AuthLayout } from './AuthLayout';
import { useAuth } from './AuthProvider';

type State = { kind: 'verifying' } | { kind: 'done' } | { kind: 'failed'; message: string };

/**
 * /auth/confirm?token=…&type=signup|email_change (the confirmation mails): confirms the address and signs the
 * user in.
 */
export function ConfirmPage() {
  const params = new URLSearchParams(useSearch());
  const token = params.get('token') ?? '';
  // The same page confirms a new account and a changed e-mail address (the link says which).
  const type = params.get('type') === 'email_change' ? 'email_change' : 'signup';
  const [, navigate] = useLocation();
  const { verifyEmailToken } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const [state, setState] = useState<State>(() =>
    token
      ? { kind: 'verifying' }
      : { kind: 'failed', message: 'The confirmation link is missing its token.' },
  );
  // The token works once: never send it twice (React's strict mode runs effects twice in development).
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void verifyEmailToken(type, token).then(({ error }) => {
      if (error) {
        setState({ kind: 'failed', message: errorMessage(error) });
        return;
      }
      setState({ kind: 'done' });
      toast(
        type === 'email_change'
          ? { title: 'Email updated', description: 'Your new e-mail address is confirmed.' }
          : { title: 'Email confirmed', description: 'Your account is ready. Happy writing!' },
      );
      navigate('/', { replace: true });
    });
  }, [token, type, verifyEmailToken, navigate]);

  if (state.kind === 'failed') {
    return (
      <AuthLayout title="We couldn't confirm your e-mail" description={state.message}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button onClick={() => openAuthDialog('signin')}>Sign In</Button>
          <Button variant="outline" onClick={() => navigate('/')}>
            Back to home
          </Button>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={state.kind === 'done' ? 'E-mail confirmed' : 'Confirming your e-mail…'}>
      <div className="flex items-center gap-3 text-sm text-muted-foreground" role="status">
        {state.kind === 'done' ? (
          <CheckCircle2Icon className="size-5 text-success" aria-hidden="true" />
        ) : (
          <Loader2Icon className="size-5 animate-spin" aria-hidden="true" />
        )}
        {state.kind === 'done' ? 'Taking you to your documents…' : 'This only takes a moment.'}
      </div>
    </AuthLayout>
  );
}
