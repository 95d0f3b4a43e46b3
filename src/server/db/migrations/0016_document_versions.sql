-- Version history: full snapshots of a document's title and content, so any version stands on its own
-- whatever happens to the live Yjs state. Deleted with their document.
CREATE TABLE document_versions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Insertion order: breaks ties between versions taken in the same instant ("newest" must be one row).
  seq bigserial NOT NULL,
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('auto', 'ai', 'restore', 'import', 'manual', 'session_end')),
  -- Set for versions a writer named ("Save version…"); named versions are never pruned.
  name text,
  title text NOT NULL,
  content jsonb NOT NULL,
  -- Who changed the document since the previous version: [{ "id": ..., "name": ... }].
  authors jsonb NOT NULL DEFAULT '[]'::jsonb,
  word_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_versions_document_created_idx ON document_versions (document_id, created_at DESC, seq DESC);
