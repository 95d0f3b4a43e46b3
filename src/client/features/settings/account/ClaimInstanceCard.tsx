import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2Icon, ShieldCheckIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/use-toast';
import { useAuth, SETUP_PATH, claimInstanceRequest, setupStatusRequest } from '@client/features/auth';
import { getSession, setSession } from '@client/lib/session-store';
import { errorMessage } from '@client/lib/api';

/**
 * Shown while the instance has no admin: the self-hoster enters the one-time setup code from the server's log
 * and becomes the admin. Signing up alone never makes anyone admin.
 */
export function ClaimInstanceCard() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const isAdmin = user?.role === 'admin';
  const status = useQuery({
    queryKey: [SETUP_PATH, user?.id],
    queryFn: setupStatusRequest,
    enabled: Boolean(user) && !isAdmin,
  });
  const [code, setCode] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (isAdmin || !status.data || status.data.has_admin) return null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      const claimed = await claimInstanceRequest(code);
      const current = getSession();
      if (current) setSession({ ...current, user: claimed });
      void queryClient.invalidateQueries({ queryKey: [SETUP_PATH] });
      toast({ title: 'You are the admin', description: 'The AI tab of these settings is now yours.' });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="grid gap-3 rounded-md border border-primary/40 bg-primary/5 p-4"
      onSubmit={onSubmit}
      aria-labelledby="claim-heading"
    >
      <div className="flex items-start gap-3">
        <ShieldCheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <div className="grid gap-0.5">
          <h3 id="claim-heading" className="text-sm font-medium">
            This instance has no admin yet
          </h3>
          <p className="text-xs text-muted-foreground">
            If you run this server, enter the setup code printed in its log to become its admin.
          </p>
        </div>
      </div>
      <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
        <div className="grid gap-2">
          <Label htmlFor="setup-code">Setup code</Label>
          <Input
            id="setup-code"
            autoComplete="off"
            spellCheck={false}
            placeholder="XXXXX-XXXXX-XXXXX"
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={saving}>
          {saving ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Become admin
        </Button>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
