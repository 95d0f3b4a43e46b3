-- Billing. users.plan stays the effective plan every other area reads; these tables say why.

-- One row per user who has a Stripe customer or an administrator-granted plan.
CREATE TABLE billing_accounts (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  stripe_customer_id text UNIQUE,
  -- Plan granted with `npm run admin -- set-plan`; null when none.
  granted_plan text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Stripe subscriptions as last seen in a verified event or a fresh retrieval.
CREATE TABLE subscriptions (
  stripe_subscription_id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  stripe_customer_id text NOT NULL,
  price_id text,
  plan text NOT NULL,
  status text NOT NULL,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  cancel_at timestamptz,
  -- When Stripe's state was this (the event's `created`, or the time of a fresh retrieval):
  -- an older event arriving late never overwrites newer state.
  state_as_of timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id);

-- Processed webhook events: the same event delivered twice changes nothing.
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  event_created_at timestamptz NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now()
);
