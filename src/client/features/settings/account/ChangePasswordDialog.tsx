import { KeyRoundIcon, Loader2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toFormError, type FormErrorDetails } from '@client/components/FormError';
import { PasswordField } from '@client/components/PasswordField';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { toast } from '@client/components/ui/use-toast';
import { useAuth, SESSIONS_PATH } from '@client/features/auth';
import { useQueryClient } from '@tanstack/react-query';

/**
 * "Change password": asks for the current password (a stolen session alone cannot change it) and the new one
 * twice. The server keeps this session and signs every other device out.
 */
export function ChangePasswordButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="outline" onClick={() => setOpen(true)}>
        <KeyRoundIcon aria-hidden="true" />
        Change password
      </Button>
      {open ? <ChangePasswordDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ChangePasswordDialog({ onClose }: { onClose(): void }) {
  const { updateUser } = useAuth();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<FormErrorDetails | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (next !== confirm) {
      setError({ message: 'The two new passwords do not match.', reasons: [] });
      return;
    }
    setSaving(true);
    setError(null);
    const result = await updateUser({ password: next, current_password: current });
    setSaving(false);
    if (result.error) {
      setError(toFormError(result.error));
      return;
    }
    void queryClient.invalidateQueries({ queryKey: [SESSIONS_PATH] });
    toast({
      title: 'Password changed',
      description: 'You stay signed in here; your other devices were signed out.',
    });
    onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Change password</DialogTitle>
          <DialogDescription>
            Enter your current password, then the new one. Your other devices will be signed out.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={onSubmit}>
          <PasswordField
            id="current-password"
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={setCurrent}
          />
          <PasswordField
            id="change-new-password"
            label="New password"
            autoComplete="new-password"
            value={next}
            onChange={setNext}
          />
          <PasswordField
            id="change-confirm-password"
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={setConfirm}
          />
          {error ? (
            <div role="alert" className="grid gap-1 text-sm text-destructive">
              <p>{error.message}</p>
              {error.reasons.length > 0 ? (
                <ul className="list-disc pl-5">
                  {error.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
              Change password
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
