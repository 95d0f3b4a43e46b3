-- People on a document: the owner invites an address with a role. A row whose user_id is null is an
-- invitation to an address without a confirmed account; it becomes a member when that address is confirmed
-- (the trigger below), so nothing in the accounts code needs to know about documents.
CREATE TABLE document_members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  -- Lower-cased and trimmed, like users.email.
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'suggester', 'editor')),
  invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
  invited_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  UNIQUE (document_id, email)
);
-- The access lookups (one user on one document, a user's "Shared with me") and the acceptance by address.
CREATE UNIQUE INDEX document_members_user_idx ON document_members (user_id, document_id) WHERE user_id IS NOT NULL;
CREATE INDEX document_members_pending_email_idx ON document_members (email) WHERE user_id IS NULL;

-- A confirmed address takes up the invitations waiting for it: at sign-up without mail (confirmed at once),
-- at the confirmation of a sign-up, or of a change of address. Only when one is waiting: the update below
-- announces an access change (the trigger after it), which makes every open collaboration socket re-check.
CREATE OR REPLACE FUNCTION qw_accept_document_invitations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.email_confirmed_at IS NOT NULL
     AND EXISTS (SELECT 1 FROM document_members WHERE user_id IS NULL AND email = NEW.email) THEN
    UPDATE document_members SET user_id = NEW.id, accepted_at = now()
      WHERE user_id IS NULL AND email = NEW.email;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_accept_document_invitations
  AFTER INSERT OR UPDATE OF email_confirmed_at, email ON users
  FOR EACH ROW EXECUTE FUNCTION qw_accept_document_invitations();

-- A changed role or a removed member can take a live collaborator's access away (0006).
CREATE TRIGGER document_members_access_changed
  AFTER UPDATE OF role, user_id OR DELETE ON document_members
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();
