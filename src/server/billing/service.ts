import type { ServerDependencies } from '../dependencies';
import type { FastifyBaseLogger } from 'fastify';
import { isStripeError, stripeClient, type StripeClient } from './stripe';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { AppError, serviceUnavailable } from '../errors';

/**
 * Billing rules. The subscription state lives in our database and changes only through a verified
 * Stripe webhook, a checkout session fetched from Stripe with the caller's own credentials, or an
 * administrator (`npm run admin`). users.plan is the effective plan every other area reads:
 * the higher of the administrator's grant and the plans of the user's live subscriptions.
 */

export type BillingDeps = Pick<ServerDependencies, 'config' | 'db'> & {
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> | undefined;
};

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** Statuses in which Stripe still expects payment and the user keeps the plan (past_due: Stripe is retrying). */
export const LIVE_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

export function billingEnabled(config: Pick<Config, 'STRIPE_SECRET_KEY'>): boolean {
  return Boolean(config.STRIPE_SECRET_KEY);
}

export async function requireStripe(config: Config): Promise<StripeClient> {
  const stripe = await stripeClient(config);
  if (!stripe) throw serviceUnavailable('Billing is not set up on this server.', 'billing_disabled');
  return stripe;
}

/**
 * Turns an SDK failure into a 502 with the action's fallback text (e.g. 'Failed to create checkout session');
 * our own errors pass through.
 */
export async function callStripe<T>(deps: BillingDeps, message: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError || !isStripeError(error)) throw error;
    deps.log?.error({ err: error }, message);
    throw new AppError(502, 'stripe_error', message);
  }
}
