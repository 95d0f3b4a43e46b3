-- Comments on passages (docs/comments.md). A thread and its comments live here; the document holds only a
-- `comment` mark with the thread's id over the passage. A thread's id is made by the client, so a retried
-- create finds the thread it made.

-- A fourth share level between viewing and suggesting: visitors read and comment. Suggesting and editing win.
ALTER TABLE documents ADD COLUMN share_allow_commenting boolean NOT NULL DEFAULT false;

-- A member may be a commenter (between viewer and suggester).
ALTER TABLE document_members DROP CONSTRAINT document_members_role_check;
ALTER TABLE document_members ADD CONSTRAINT document_members_role_check
  CHECK (role IN ('viewer', 'commenter', 'suggester', 'editor'));

CREATE TABLE comment_threads (
  id uuid PRIMARY KEY,
  -- Trashing a document keeps its threads; deleting it for good takes them.
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  quote text NOT NULL,
  prefix text NOT NULL DEFAULT '',
  suffix text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolved_at timestamptz,
  resolved_by_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  resolved_by_name text,
  -- Null for a share-link visitor (and once the account is deleted); the name stays.
  author_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  author_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comment_threads_document_idx ON comment_threads (document_id, created_at);

CREATE TABLE comments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  thread_id uuid NOT NULL REFERENCES comment_threads(id) ON DELETE CASCADE,
  author_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  author_name text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  edited_at timestamptz
);
CREATE INDEX comments_thread_idx ON comments (thread_id, created_at);
