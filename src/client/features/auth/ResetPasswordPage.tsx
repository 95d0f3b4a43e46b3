import { Loader2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { FormErrorAlert, toFormError, type FormErrorDetails } from '@client/components/FormError';
import { PasswordField } from '@client/components/PasswordField';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useAuthDialog } from './auth-dialog';
import { AuthLayout } from './AuthLayout';
import { useAuth } from './AuthProvider';

/**
 * /reset-password?token=… (the link of the recovery mail): choose a new password. The token is exchanged for a
 * session (POST /api/auth/verify type recovery) when the form is sent, then the password is set with
 * PUT /api/auth/user and the user lands on the dashboard, signed in.
 */
export function ResetPasswordPage() {
  const search = useSearch();
  const token = new URLSearchParams(search).get('token') ?? '';
  const [, navigate] = useLocation();
  const { verifyEmailToken, updateUser } = useAuth();
  const { openAuthDialog } = useAuthDialog();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [pending, setPending] = useState(false);
  const [verified, setVerified] = useState(false);
  const [linkInvalid, setLinkInvalid] = useState(!token);
  const [error, setError] = useState<FormErrorDetails | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    if (password !== confirm) {
      setError({ message: 'The two passwords do not match.', reasons: [] });
      return;
    }
    setPending(true);
    setError(null);
    try {
      if (!verified) {
        const result = await verifyEmailToken('recovery', token);
        if (result.error) {
          setLinkInvalid(true);
          toast({
            title: 'Authentication failed',
            description: errorMessage(result.error),
            variant: 'destructive',
          });
          return;
        }
        setVerified(true);
      }
      const { error: updateError } = await updateUser({ password });
      if (updateError) {
        setError(toFormError(updateError));
        return;
      }
      toast({ title: 'Password updated', description: 'You are signed in with your new password.' });
      navigate('/', { replace: true });
    } finally {
      setPending(false);
    }
  };

  if (linkInvalid) {
    return (
      <AuthLayout
        title="This link has expired"
        description="Password reset links work once and expire after a while. Ask for a new one and use the latest e-mail."
      >
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button onClick={() => openAuthDialog('reset')}>Send a new link</Button>
          <Button variant="outline" onClick={() => navigate('/')}>
            Back to home
          </Button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" description="Pick something you haven't used here before.">
      <form className="grid gap-4" onSubmit={onSubmit}>
        <PasswordField
          id="new-password"
          label="New password"
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={setPassword}
          invalid={Boolean(error)}
        />
        <PasswordField
          id="confirm-password"
          label="Confirm new password"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
        />
        {error ? <FormErrorAlert error={error} /> : null}
        <Button type="submit" size="lg" disabled={pending}>
          {pending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Update Password
        </Button>
      </form>
    </AuthLayout>
  );
}
