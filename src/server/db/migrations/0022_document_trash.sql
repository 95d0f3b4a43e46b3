-- The trash: a trashed document keeps everything (versions, suggestions, AI chat, share settings) and is hidden
-- everywhere a live one is seen until it is restored or purged (deleted for good, which cascades as before).
ALTER TABLE documents ADD COLUMN trashed_at timestamptz;
-- Only trashed rows: the owner's trash list (newest first) reads it by user, and the purge reads it whole,
-- which stays small because documents leave the trash after the retention period.
CREATE INDEX documents_trash_idx ON documents (user_id, trashed_at DESC) WHERE trashed_at IS NOT NULL;
-- Trashing takes a live collaborator's access away: it announces itself like a change of owner (0006).
DROP TRIGGER documents_access_changed ON documents;
CREATE TRIGGER documents_access_changed
  AFTER UPDATE OF user_id, trashed_at OR DELETE ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();
