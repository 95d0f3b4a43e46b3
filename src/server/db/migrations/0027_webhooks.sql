-- Webhooks: a user's endpoints that hear about their documents, and every delivery with its last answer
-- (docs/webhooks.md).
CREATE TABLE webhooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url text NOT NULL,
  -- The signing secret, sealed with the instance's encryption key (it must be read again to sign).
  secret_sealed text NOT NULL,
  events text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Deliveries that gave up one after another; reset by a delivery that succeeds.
  consecutive_failures integer NOT NULL DEFAULT 0,
  -- Set after too many failed deliveries in a row; nothing is sent until the owner enables it again.
  disabled_at timestamptz
);
CREATE INDEX webhooks_user_idx ON webhooks (user_id);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event text NOT NULL,
  document_id uuid,
  -- 'pending' (waiting for its next attempt), 'delivered', or 'failed' (gave up).
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
-- The sender's queue: due pending deliveries, oldest first.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, created_at DESC);
-- One waiting, untried document.updated per webhook and document: the changes of a burst are announced once,
-- however many instances and requests report them at the same moment.
CREATE UNIQUE INDEX webhook_deliveries_one_update_idx ON webhook_deliveries (webhook_id, document_id)
  WHERE event = 'document.updated' AND status = 'pending' AND attempts = 0;
