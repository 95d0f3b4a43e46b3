-- Mentions in comments and the notifications they and replies make (docs/notifications.md, docs/comments.md).

-- The people a comment mentions, as they were named when it was written: [{ "id": user id, "name": … }]. The
-- body holds `<@user id>` where each one is mentioned.
ALTER TABLE comments ADD COLUMN mentions jsonb NOT NULL DEFAULT '[]'::jsonb;

CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Who is told.
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('mention', 'reply', 'comment')),
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  -- Deleting a thread takes its notifications.
  thread_id uuid NOT NULL REFERENCES comment_threads(id) ON DELETE CASCADE,
  comment_id uuid REFERENCES comments(id) ON DELETE CASCADE,
  -- Who did it, as named then (null id: a share-link visitor, or a deleted account).
  actor_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  -- Shown in the list: the document's title and the comment's first words at the time.
  document_title text NOT NULL,
  excerpt text NOT NULL,
  -- False when the person's in-app switch for this kind was off: the row is there for the e-mail digest only.
  in_app boolean NOT NULL DEFAULT true,
  -- Whole milliseconds: the list's cursor carries the time as JavaScript reads it.
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  read_at timestamptz,
  -- Set by the digest when it took the row (sent, or passed over for the switch or an unconfirmed address).
  mailed_at timestamptz
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL AND in_app;
CREATE INDEX notifications_digest_idx ON notifications (created_at) WHERE mailed_at IS NULL AND read_at IS NULL;

-- When each person was last sent a digest: at most one per NOTIFICATION_DIGEST_INTERVAL_MS.
CREATE TABLE notification_digests (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  last_sent_at timestamptz NOT NULL
);
