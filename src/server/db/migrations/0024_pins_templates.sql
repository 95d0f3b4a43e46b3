-- Pinned documents: each user pins their own, so a document several people reach is pinned per person.
-- The pin outlives a trip to the trash (a restored document comes back pinned); lists join it only for
-- documents outside the trash, and it goes with the document or the user when either is deleted.
CREATE TABLE document_pins (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  pinned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, document_id)
);
CREATE INDEX document_pins_document_idx ON document_pins (document_id);

-- A writer's own templates: a title and rich-text content copied from a document, which may hold the
-- variables {{date}} and {{title}}, filled when a document is made from it.
CREATE TABLE templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  title text NOT NULL,
  content jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX templates_user_idx ON templates (user_id, created_at DESC);
