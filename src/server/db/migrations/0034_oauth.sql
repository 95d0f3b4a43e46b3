-- OAuth 2.1 for the MCP endpoint. A client registers itself (dynamic client registration, public clients
-- only: no secret); a user's consent makes a grant; the grant's access tokens are api_tokens rows of kind
-- 'oauth' (so the token check, scopes, rate limit and the instance's switch apply to them as to any token),
-- and its refresh tokens rotate. Deleting a grant (Disconnect, refresh-token reuse) deletes its tokens.
-- Codes and refresh tokens are 32 random bytes: only their SHA-256 is kept.
CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  redirect_uris text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE oauth_grants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id, created_at DESC);

-- A code is kept after its use (used_at, and the grant it made) so that a second use is seen and revokes
-- that grant.
CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scopes text[] NOT NULL,
  resource text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  grant_id uuid REFERENCES oauth_grants(id) ON DELETE CASCADE
);

-- Every refresh token a grant was given: the live one has no used_at; a used one presented again means the
-- token was copied, and the whole grant goes.
CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_refresh_tokens_grant_idx ON oauth_refresh_tokens (grant_id);

ALTER TABLE api_tokens ADD COLUMN kind text NOT NULL DEFAULT 'personal' CHECK (kind IN ('personal', 'oauth'));
ALTER TABLE api_tokens ADD COLUMN grant_id uuid REFERENCES oauth_grants(id) ON DELETE CASCADE;
CREATE INDEX api_tokens_grant_idx ON api_tokens (grant_id) WHERE grant_id IS NOT NULL;
