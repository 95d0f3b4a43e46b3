-- Instance roles: `admin` manages the instance (AI providers, allowances); everyone else is a `member`.
-- On an existing install the oldest account becomes the admin; on a new one, the first account created.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member'));

UPDATE users SET role = 'admin' WHERE id = (SELECT id FROM users ORDER BY created_at, id LIMIT 1);

-- The first account of an instance is its admin, whichever path creates it (sign-up, tests, scripts). The
-- transaction-level advisory lock makes two simultaneous first sign-ups take turns, so only one wins.
CREATE OR REPLACE FUNCTION qw_first_user_is_admin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM users) THEN
    PERFORM pg_advisory_xact_lock(7413522);
    IF NOT EXISTS (SELECT 1 FROM users) THEN
      NEW.role := 'admin';
    END IF;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER users_first_is_admin
  BEFORE INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION qw_first_user_is_admin();
