-- Images uploaded into documents (docs/images.md). The bytes live on disk under
-- DATA_DIR/images/<document_id>/<id>.<ext>; a row goes with its document, and the files are removed when the
-- document is deleted for good.
CREATE TABLE document_images (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  -- Who uploaded it (the owner or an editor); the storage counts against the document owner's plan.
  uploaded_by uuid REFERENCES users(id) ON DELETE SET NULL,
  bytes integer NOT NULL,
  mime text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX document_images_document_idx ON document_images (document_id);
