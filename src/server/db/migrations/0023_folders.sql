-- Folders: a user's nested folders, and where each document sits among them (docs/library.md).
CREATE TABLE folders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- The service keeps the tree free of loops. A folder that went to the trash on its own keeps its old parent
  -- (where it is restored to); when that parent is deleted for good it is restored to the top level.
  parent_id uuid REFERENCES folders(id) ON DELETE SET NULL,
  name text NOT NULL,
  -- The manual order among its siblings (smallest first).
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  trashed_at timestamptz,
  -- The folder whose deletion took this one to the trash (itself for the folder deleted); restoring that
  -- folder brings back what went with it, and only that.
  trashed_with uuid
);
CREATE INDEX folders_user_parent_idx ON folders (user_id, parent_id);
CREATE INDEX folders_trashed_with_idx ON folders (trashed_with) WHERE trashed_with IS NOT NULL;

-- A document in no folder sits at the top level. Deleting a folder for good never deletes a document that
-- left it: such a document is back at the top level.
ALTER TABLE documents ADD COLUMN folder_id uuid REFERENCES folders(id) ON DELETE SET NULL;
ALTER TABLE documents ADD COLUMN position integer NOT NULL DEFAULT 0;
ALTER TABLE documents ADD COLUMN trashed_with uuid;
CREATE INDEX documents_folder_idx ON documents (folder_id, position) WHERE folder_id IS NOT NULL;
CREATE INDEX documents_trashed_with_idx ON documents (trashed_with) WHERE trashed_with IS NOT NULL;
