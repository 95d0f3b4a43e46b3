-- Custom AI commands: a writer's own instructions, run on the selection or paragraph from the slash palette
-- or the selection helper. Their answers arrive as suggestions like every other AI change.
CREATE TABLE ai_commands (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  instruction text NOT NULL,
  icon text NOT NULL DEFAULT 'sparkles',
  show_in_slash boolean NOT NULL DEFAULT true,
  show_in_selection boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ai_commands_user_idx ON ai_commands (user_id, created_at);

-- When a writer's example commands were added (once: deleted examples do not come back).
CREATE TABLE ai_command_presets (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  seeded_at timestamptz NOT NULL DEFAULT now()
);
