-- Idempotency keys on the REST API's creates (src/server/idempotency, docs/api.md). A row is claimed by the
-- first request with the key (status NULL while it runs) and then holds the answer to replay. Keyed by the
-- acting user and the key; the method, path and body hash say what the key was first used for. Kept 24 hours.
CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  body_hash text NOT NULL,
  status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);
