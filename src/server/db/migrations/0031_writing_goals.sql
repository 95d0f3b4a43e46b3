-- Writing goals (docs/goals.md): each writer's word target and deadline for a document, and the net words each
-- writer wrote in each document per quarter hour (summed into local days in whatever zone the writer asks in).
CREATE TABLE document_goals (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  target_words integer NOT NULL,
  -- The last day of writing, in the writer's zone; null for a target without a deadline.
  deadline date,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, document_id)
);

CREATE TABLE words_written (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  -- The start of a quarter hour (UTC).
  bucket_start timestamptz NOT NULL,
  -- Net: words added minus words removed, so it may be negative.
  words integer NOT NULL,
  PRIMARY KEY (user_id, document_id, bucket_start)
);
CREATE INDEX words_written_user_time_idx ON words_written (user_id, bucket_start);

-- A writer's target for a folder: counted over the documents in it and in its sub-folders.
CREATE TABLE folder_goals (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  folder_id uuid NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
  target_words integer NOT NULL,
  deadline date,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, folder_id)
);
