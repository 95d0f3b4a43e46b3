-- AI providers configured in the app (beside the read-only ones from environment variables), and the
-- instance's AI allowance. API keys are stored sealed with AES-256-GCM (src/server/ai/secret-box.ts).
CREATE TABLE ai_provider_settings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('openai-compatible', 'anthropic')),
  base_url text,
  model text NOT NULL,
  api_key_sealed text,
  enabled boolean NOT NULL DEFAULT true,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row at most (id = 1). NULL monthly_tokens_per_user means AI_MONTHLY_TOKENS_PER_USER.
CREATE TABLE ai_settings (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  monthly_tokens_per_user integer CHECK (monthly_tokens_per_user >= 0),
  admins_unlimited boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every committed change announces itself on `qw_ai_settings_changed`; each instance listening re-reads the
-- providers, so the next request anywhere uses the change (src/server/ai/provider-registry.ts).
CREATE OR REPLACE FUNCTION qw_notify_ai_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('qw_ai_settings_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER ai_provider_settings_changed
  AFTER INSERT OR UPDATE OR DELETE ON ai_provider_settings
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_ai_settings_changed();

CREATE TRIGGER ai_settings_changed
  AFTER INSERT OR UPDATE OR DELETE ON ai_settings
  FOR EACH STATEMENT EXECUTE FUNCTION qw_notify_ai_settings_changed();
