-- People on a folder: the owner invites an address with a role, and the role holds on every document in the
-- folder and in its sub-folders, at any depth (the access policy walks up from a document's folder). Invitations
-- work like document_members' (0026): a row without a user waits for its address to be confirmed.
CREATE TABLE folder_members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  folder_id uuid NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  -- Lower-cased and trimmed, like users.email.
  email text NOT NULL,
  -- One of the member roles (src/shared/schemas/people.ts MEMBER_ROLES), checked by the service; no CHECK
  -- here, so a role added to that list needs no change of this table.
  role text NOT NULL,
  invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
  invited_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  UNIQUE (folder_id, email)
);
-- The access lookups (one user's memberships on a document's folders, their "Shared with me") and the
-- acceptance by address.
CREATE UNIQUE INDEX folder_members_user_idx ON folder_members (user_id, folder_id) WHERE user_id IS NOT NULL;
CREATE INDEX folder_members_pending_email_idx ON folder_members (email) WHERE user_id IS NULL;
-- The walk down from a shared folder to its sub-folders ("Shared with me").
CREATE INDEX folders_parent_idx ON folders (parent_id) WHERE parent_id IS NOT NULL;

CREATE OR REPLACE FUNCTION qw_accept_folder_invitations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.email_confirmed_at IS NOT NULL
     AND EXISTS (SELECT 1 FROM folder_members WHERE user_id IS NULL AND email = NEW.email) THEN
    UPDATE folder_members SET user_id = NEW.id, accepted_at = now()
      WHERE user_id IS NULL AND email = NEW.email;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_accept_folder_invitations
  AFTER INSERT OR UPDATE OF email_confirmed_at, email ON users
  FOR EACH ROW EXECUTE FUNCTION qw_accept_folder_invitations();

-- Writes that can take a live collaborator's access away announce themselves (0006): a folder member's role
-- changed or removed, a folder moved or trashed (its documents leave the shared folder above it), and a
-- document moved to another folder.
CREATE TRIGGER folder_members_access_changed
  AFTER UPDATE OF role, user_id OR DELETE ON folder_members
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();

CREATE TRIGGER folders_access_changed
  AFTER UPDATE OF parent_id, trashed_at OR DELETE ON folders
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();

DROP TRIGGER documents_access_changed ON documents;
CREATE TRIGGER documents_access_changed
  AFTER UPDATE OF user_id, trashed_at, folder_id OR DELETE ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();
