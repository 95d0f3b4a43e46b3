import { Separator } from '@client/components/ui/separator';
import { ChangePasswordButton } from './ChangePasswordDialog';
import { SessionsList } from './SessionsList';

/** The security part of the Profile tab: the password and where the account is signed in. */
export function AccountSecurity() {
  return (
    <div className="grid gap-5">
      <Separator />
      <div className="flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-0.5">
          <h3 className="text-sm font-medium">Password</h3>
          <p className="text-xs text-muted-foreground">
            Changing it keeps you signed in here and signs out your other devices.
          </p>
        </div>
        <ChangePasswordButton />
      </div>
      <SessionsList />
    </div>
  );
}
