import { FeatherIcon, Loader2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH, PRODUCT_NAME } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { FormErrorAlert, toFormError, type FormErrorDetails } from '@client/components/FormError';
import { PasswordField } from '@client/components/PasswordField';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from './AuthProvider';
import type { AuthDialogPrefill } from './auth-dialog';
import type { AuthDialogMode } from './types';

const COPY: Record<AuthDialogMode, { title: string; description: string; submit: string }> = {
  signin: {
    title: 'Welcome back',
    description: `Sign in to continue writing with ${PRODUCT_NAME}.`,
    submit: 'Sign In',
  },
  signup: {
    title: 'Create your account',
    description: 'Start writing for free. No credit card needed.',
    submit: 'Create Account',
  },
  reset: {
    title: 'Reset your password',
    description: "Enter your e-mail and we'll send you a link to choose a new password.",
    submit: 'Send Reset Link',
  },
};

/** The sign in / sign up / reset dialog. Loaded on first open; mounted by AuthDialogProvider. */
export function AuthDialog({
  open,
  mode,
  initial,
  onOpenChange,
  onModeChange,
}: {
  open: boolean;
  /** Fields the writer already filled in elsewhere. */
  initial?: AuthDialogPrefill | undefined;
  mode: AuthDialogMode;
  onOpenChange(open: boolean): void;
  onModeChange(mode: AuthDialogMode): void;
}) {
  const { signIn, signUp, resetPassword } = useAuth();
  const [fullName, setFullName] = useState(initial?.fullName ?? '');
  const [email, setEmail] = useState(initial?.email ?? '');
  const [password, setPassword] = useState(initial?.password ?? '');
  const [pending, setPending] = useState(false);
  const [formError, setFormError] = useState<FormErrorDetails | null>(null);

  const clear = () => {
    setFullName('');
    setEmail('');
    setPassword('');
    setFormError(null);
  };

  // Switching mode clears the fields (no password carried into another form).
  const switchTo = (next: AuthDialogMode) => {
    clear();
    onModeChange(next);
  };

  // Reported once, in the form beside the fields (an alert screen readers announce), not in a toast as well.
  const fail = (error: unknown) => {
    setFormError(toFormError(error));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFormError(null);
    try {
      if (mode === 'signin') {
        const { error } = await signIn(email.trim(), password);
        if (error) return fail(error);
        toast({ title: 'Welcome back!', description: 'You have signed in successfully.' });
      } else if (mode === 'signup') {
        const { error, session } = await signUp(email.trim(), password, fullName.trim());
        if (error) return fail(error);
        if (session) {
          toast({
            title: `Welcome to ${PRODUCT_NAME}!`,
            description: 'Your account is ready. Happy writing.',
          });
        } else {
          toast({
            title: 'Check your email',
            description: 'We sent you a confirmation link to finish signing up.',
          });
        }
      } else {
        const { error } = await resetPassword(email.trim());
        if (error) return fail(error);
        toast({
          title: 'Reset link sent',
          description: 'Check your email for a link to reset your password.',
        });
      }
      clear();
      onOpenChange(false);
    } finally {
      setPending(false);
    }
  };

  const copy = COPY[mode];
  const errorId = 'auth-dialog-error';

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) clear();
        onOpenChange(next);
      }}
    >
      <DialogContent className="sm:max-w-md" aria-describedby="auth-dialog-description">
        <DialogHeader>
          <div className="mb-1 flex justify-center sm:justify-start">
            <span className="grid size-10 place-items-center rounded-xl bg-primary text-primary-foreground shadow-sm">
              <FeatherIcon className="size-5" aria-hidden="true" />
            </span>
          </div>
          <DialogTitle>{copy.title}</DialogTitle>
          <DialogDescription id="auth-dialog-description">{copy.description}</DialogDescription>
        </DialogHeader>

        <form onSubmit={onSubmit} className="grid gap-4" aria-describedby={formError ? errorId : undefined}>
          {mode === 'signup' ? (
            <div className="grid gap-2">
              <Label htmlFor="auth-full-name">Full name</Label>
              <Input
                id="auth-full-name"
                name="full_name"
                autoComplete="name"
                required
                value={fullName}
                onChange={(e) => setFullName(e.target.value)}
                placeholder="Ada Lovelace"
              />
            </div>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor="auth-email">Email</Label>
            <Input
              id="auth-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="you@example.com"
              aria-invalid={formError ? true : undefined}
            />
          </div>
          {mode !== 'reset' ? (
            <PasswordField
              id="auth-password"
              name="password"
              label="Password"
              autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
              minLength={mode === 'signup' ? MIN_PASSWORD_LENGTH : undefined}
              value={password}
              onChange={setPassword}
              invalid={Boolean(formError)}
              labelAside={
                mode === 'signin' ? (
                  <button
                    type="button"
                    className="text-xs font-medium text-primary hover:underline"
                    onClick={() => switchTo('reset')}
                  >
                    Forgot password?
                  </button>
                ) : null
              }
            />
          ) : null}

          {formError ? <FormErrorAlert id={errorId} error={formError} /> : null}

          <Button type="submit" size="lg" disabled={pending} className="w-full">
            {pending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            {copy.submit}
          </Button>
        </form>

        <div className="text-center text-sm text-muted-foreground">
          {mode === 'signin' ? (
            <>
              Don&apos;t have an account?{' '}
              <button
                type="button"
                className="font-medium text-primary hover:underline"
                onClick={() => switchTo('signup')}
              >
                Sign up
              </button>
            </>
          ) : mode === 'signup' ? (
            <>
              Already have an account?{' '}
              <button
                type="button"
                className="font-medium text-primary hover:underline"
                onClick={() => switchTo('signin')}
              >
                Sign in
              </button>
            </>
          ) : (
            <>
              Remembered it?{' '}
              <button
                type="button"
                className="font-medium text-primary hover:underline"
                onClick={() => switchTo('signin')}
              >
                Back to sign in
              </button>
            </>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
