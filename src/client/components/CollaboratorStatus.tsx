/**
 * What a collaborator who is not the owner (a link visitor or an invited person) sees above the text: whether
 * the socket is live, under which name they write, and, when suggesting, what that means.
 */
export function CollaboratorStatus({
  live,
  suggesting,
  name,
}: {
  live: boolean;
  suggesting: boolean;
  name: string;
}) {
  return (
    <>
      <div className="mb-4 flex items-center gap-2 text-xs text-muted-foreground">
        <span
          className={`inline-block size-2 rounded-full ${live ? 'bg-green-500' : 'bg-amber-500'}`}
          aria-hidden="true"
        />
        <span data-testid="connection-badge">{live ? 'Live' : 'Offline'}</span>
        <span>
          · {suggesting ? 'suggesting' : 'editing'} as {name}
        </span>
      </div>
      {suggesting && (
        <p className="mb-4 rounded-lg bg-muted px-3 py-2 text-sm" data-testid="suggesting-notice">
          You are suggesting: what you type and delete is shown as suggestions for the owner to accept or
          reject.
        </p>
      )}
    </>
  );
}
