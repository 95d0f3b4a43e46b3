-- Writes that can take a live collaborator's access away announce themselves on the channel
-- `qw_access_changed` (statement-level, after commit). The embedded server listens and re-checks live
-- connections only when something changed (src/server/collab/authentication-extension.ts); on PostgreSQL
-- nobody listens yet and a NOTIFY without listeners costs next to nothing.
CREATE OR REPLACE FUNCTION qw_notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('qw_access_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_access_changed
  AFTER UPDATE OF revoked_at, user_id OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();

CREATE TRIGGER documents_access_changed
  AFTER UPDATE OF user_id OR DELETE ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_access_changed();
