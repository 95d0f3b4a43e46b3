-- Sessions list: the device a session was started on and when it was last used (updated at most every few
-- minutes, see plugins/auth.ts).
ALTER TABLE sessions ADD COLUMN user_agent text NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();

-- The first account no longer becomes admin by itself: on a public install whoever signed up first owned the
-- instance. The first admin is now whoever holds the setup code printed in the log, or ADMIN_EMAIL
-- (docs/accounts.md). Existing admins stay admins.
DROP TRIGGER IF EXISTS users_first_is_admin ON users;
DROP FUNCTION IF EXISTS qw_first_user_is_admin();

-- One-time setup codes (only their SHA-256), made at start while the instance has no admin. Every running
-- instance may add one; the first code redeemed makes its holder admin and voids all of them.
CREATE TABLE setup_codes (
  id bigserial PRIMARY KEY,
  code_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz
);

-- Failed password sign-ins of the last minutes, per address and client IP: a lockout per (e-mail, IP) and a
-- growing delay per e-mail (accounts/sign-in-throttle.ts). Shared by every instance; old rows are deleted.
CREATE TABLE sign_in_failures (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  ip text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_email_idx ON sign_in_failures (email, failed_at);
CREATE INDEX sign_in_failures_failed_at_idx ON sign_in_failures (failed_at);
