-- Personal API tokens: a user's named, scoped bearer secrets for the REST API. Only the SHA-256 of the secret
-- is kept (the secret is 32 random bytes, so a fast hash is enough); `hint` is its last characters, shown so
-- the owner can tell tokens apart. Revoking deletes the row, so the next request with it finds nothing.
CREATE TABLE api_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  scopes text[] NOT NULL,
  token_hash text NOT NULL UNIQUE,
  hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at DESC);

-- The instance's switch for API tokens (one row, id 1): when off, every token request is refused.
CREATE TABLE api_token_settings (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO api_token_settings (id, enabled) VALUES (1, true);
