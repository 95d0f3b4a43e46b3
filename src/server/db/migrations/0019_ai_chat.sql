-- Chat with the document: each writer's conversation about one of their documents (the editor's chat panel).
-- Assistant answers that propose changes keep them in `edits` ([{ "find", "replace" }], validated first).
CREATE TABLE ai_chat_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  document_id uuid NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  content text NOT NULL,
  edits jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ai_chat_messages_conversation_idx ON ai_chat_messages (document_id, user_id, created_at);
