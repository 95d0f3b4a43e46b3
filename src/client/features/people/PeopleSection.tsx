import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { useToast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { MEMBER_ROLES, type DocumentMember, type MemberRole } from '@shared/schemas/people';
import { Loader2, UserPlus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useChangeMemberRole, useInviteMember, useMembers, useRemoveMember, type MemberTarget } from './api';
import { ROLE_LABELS } from './constants';

function RoleSelect({
  value,
  onChange,
  label,
  disabled,
}: {
  value: MemberRole;
  onChange: (role: MemberRole) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <Select
      value={value}
      disabled={disabled}
      onValueChange={(next) => {
        const role = MEMBER_ROLES.find((r) => r === next);
        if (role) onChange(role);
      }}
    >
      <SelectTrigger size="sm" aria-label={label} className="shrink-0 text-xs">
        <SelectValue />
      </SelectTrigger>
      <SelectContent align="end">
        {MEMBER_ROLES.map((role) => (
          <SelectItem key={role} value={role} className="text-xs">
            {ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** What the section says of the target: "this document" or "this folder's documents". */
const TARGET_TEXT: Record<MemberTarget['kind'], { lose: string; open: string; empty: string }> = {
  document: {
    lose: 'this document',
    open: 'can now open this document',
    empty: 'No one is invited yet. People you invite open it under their own name.',
  },
  folder: {
    lose: "this folder's documents",
    open: "can now open this folder's documents",
    empty:
      'No one is invited yet. People you invite open every document in this folder and its sub-folders, under their own name.',
  },
};

/** One person on the document or folder: their role changes at once; removing asks first. */
function MemberRow({ target, member }: { target: MemberTarget; member: DocumentMember }) {
  const changeRole = useChangeMemberRole(target);
  const remove = useRemoveMember(target);
  const { toast } = useToast();
  const [confirming, setConfirming] = useState(false);
  const waiting = member.acceptedAt === null;
  const who = member.name ?? member.email;
  const failed = (title: string) => (error: unknown) =>
    toast({ title, description: errorMessage(error), variant: 'destructive' });

  if (confirming) {
    return (
      <li className="space-y-2 rounded-md bg-muted/60 p-2" data-testid="member-row">
        <p className="text-xs">
          {waiting
            ? `Cancel the invitation to ${member.email}?`
            : `Remove ${who}? They lose access to ${TARGET_TEXT[target.kind].lose} at once.`}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" size="sm" autoFocus onClick={() => setConfirming(false)}>
            Keep
          </Button>
          <Button
            variant="destructive"
            size="sm"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(member.id, {
                onSuccess: () =>
                  toast({
                    title: 'Sharing Updated',
                    description: waiting ? `Invitation to ${member.email} cancelled` : `${who} was removed`,
                  }),
                onError: failed('Remove Failed'),
              })
            }
          >
            Remove
          </Button>
        </div>
      </li>
    );
  }

  return (
    <li className="flex items-center gap-2" data-testid="member-row">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm" title={member.email}>
          {who}
        </p>
        <div className="flex items-center gap-1.5">
          {member.name ? <p className="truncate text-xs text-muted-foreground">{member.email}</p> : null}
          {waiting ? (
            <Badge variant="secondary" className="px-1.5 py-0 text-[0.65rem]">
              Invited
            </Badge>
          ) : null}
        </div>
      </div>
      <RoleSelect
        value={member.role}
        label={`Role of ${who}`}
        disabled={changeRole.isPending}
        onChange={(role) =>
          changeRole.mutate(
            { memberId: member.id, role },
            {
              onSuccess: () =>
                toast({
                  title: 'Sharing Updated',
                  description: `${who}: ${ROLE_LABELS[role].toLowerCase()}`,
                }),
              onError: failed('Update Failed'),
            },
          )
        }
      />
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={waiting ? `Cancel the invitation to ${member.email}` : `Remove ${who}`}
        onClick={() => setConfirming(true)}
      >
        <X />
      </Button>
    </li>
  );
}

/**
 * The People part of the owner's Share menu of a document, and of a folder's Share dialog: invite an address with
 * a role, change a person's role, remove them. The server decides everything (plan limit, an address already on
 * the document or folder, the owner's own address), and its message is what the owner reads.
 */
export function PeopleSection({ target, enabled = true }: { target: MemberTarget; enabled?: boolean }) {
  const members = useMembers(target, enabled);
  const invite = useInviteMember(target);
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');
  const [error, setError] = useState<string | null>(null);
  const ids = { email: useId(), heading: useId(), error: useId() };
  const list = members.data?.members ?? [];
  const limit = members.data?.limit ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address || invite.isPending) return;
    setError(null);
    invite.mutate(
      { email: address, role },
      {
        onSuccess: (member) => {
          setEmail('');
          toast({
            title: 'Sharing Updated',
            description: member.acceptedAt
              ? `${member.name ?? member.email} ${TARGET_TEXT[target.kind].open}`
              : `Invitation sent to ${member.email}`,
          });
        },
        onError: (e) => setError(errorMessage(e)),
      },
    );
  };

  return (
    <section className="space-y-3" aria-labelledby={ids.heading} data-testid="people-section">
      <div className="flex items-baseline justify-between gap-2">
        <h3 id={ids.heading} className="text-sm font-medium">
          People
        </h3>
        {limit !== null ? (
          <span className="text-xs text-muted-foreground" data-testid="people-count">
            {list.length} of {limit}
          </span>
        ) : null}
      </div>
      <form className="space-y-1.5" onSubmit={submit} aria-label="Invite people" noValidate>
        <Label htmlFor={ids.email} className="sr-only">
          E-mail address
        </Label>
        <div className="flex gap-2">
          <Input
            id={ids.email}
            type="email"
            autoComplete="off"
            placeholder="name@example.com"
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
            className="h-8 min-w-0 text-sm"
          />
          <RoleSelect value={role} onChange={setRole} label="Role for the invitation" />
        </div>
        {error ? (
          <p id={ids.error} role="alert" className="text-xs text-destructive">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" size="sm" disabled={!email.trim() || invite.isPending}>
            {invite.isPending ? <Loader2 className="animate-spin" /> : <UserPlus />}
            Invite
          </Button>
        </div>
      </form>
      {members.isError ? (
        <div role="alert" className="space-y-2 text-xs">
          <p>People could not be loaded. {errorMessage(members.error)}</p>
          <Button size="sm" variant="outline" onClick={() => void members.refetch()}>
            Try again
          </Button>
        </div>
      ) : members.isPending && enabled ? (
        <p className="text-xs text-muted-foreground">Loading people…</p>
      ) : list.length === 0 ? (
        <p className="text-xs text-muted-foreground">{TARGET_TEXT[target.kind].empty}</p>
      ) : (
        <ul className="max-h-56 space-y-2 overflow-y-auto" aria-label="People with access">
          {list.map((member) => (
            <MemberRow key={member.id} target={target} member={member} />
          ))}
        </ul>
      )}
    </section>
  );
}
