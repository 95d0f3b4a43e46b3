-- The orphaned-image sweep (docs/images.md) checks a batch of images each round, least recently checked first:
-- checked_at is when it last looked at this image (null: never).
ALTER TABLE document_images ADD COLUMN checked_at timestamptz;
CREATE INDEX document_images_sweep_idx ON document_images (checked_at NULLS FIRST, created_at);
