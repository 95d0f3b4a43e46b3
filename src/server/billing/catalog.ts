import type { Config } from '../config';
import { PLANS, isPlanId, type BillingPeriod, type PlanId } from '../../shared/plans';
import type { PlansResponse } from '../../shared/schemas/billing';
import { limitsEnforced } from './plan-limits';
import { billingEnabled } from './service';

/** Plans and prices: which Stripe price is which plan and period, and the public plan list. */

interface CatalogEntry {
  plan: PlanId;
  period: BillingPeriod;
}

function priceIdsOf(
  config: Config,
): Record<Exclude<PlanId, 'gratis'>, Record<BillingPeriod, string | undefined>> {
  return {
    creator: { monthly: config.STRIPE_PRICE_CREATOR_MONTHLY, annual: config.STRIPE_PRICE_CREATOR_ANNUAL },
    professional: {
      monthly: config.STRIPE_PRICE_PROFESSIONAL_MONTHLY,
      annual: config.STRIPE_PRICE_PROFESSIONAL_ANNUAL,
    },
  };
}

function productIdsOf(config: Config): Record<Exclude<PlanId, 'gratis'>, string | undefined> {
  return { creator: config.STRIPE_PRODUCT_CREATOR, professional: config.STRIPE_PRODUCT_PROFESSIONAL };
}

/** Our price ids → plan and period. Only these can be bought. */
export function priceCatalog(config: Config): Map<string, CatalogEntry> {
  const catalog = new Map<string, CatalogEntry>();
  for (const [plan, periods] of Object.entries(priceIdsOf(config)) as [
    Exclude<PlanId, 'gratis'>,
    Record<BillingPeriod, string | undefined>,
  ][]) {
    for (const period of ['monthly', 'annual'] as const) {
      const id = periods[period];
      if (id) catalog.set(id, { plan, period });
    }
  }
  return catalog;
}

/** The plan a Stripe price stands for: by price id, else by product id; null when it is not ours. */
export function planForPrice(
  config: Config,
  priceId: string | null,
  productId: string | null,
): PlanId | null {
  if (priceId) {
    const entry = priceCatalog(config).get(priceId);
    if (entry) return entry.plan;
  }
  if (productId) {
    for (const [plan, id] of Object.entries(productIdsOf(config))) {
      if (id && id === productId && isPlanId(plan)) return plan;
    }
  }
  return null;
}

/** GET /api/plans: Gratis, Creator and Professional with this server's price ids. Contains no secret. */
export function publicPlans(config: Config): PlansResponse {
  const prices = priceIdsOf(config);
  const products = productIdsOf(config);
  return {
    billingEnabled: billingEnabled(config),
    limitsEnforced: limitsEnforced(config),
    plans: PLANS.map((plan) => {
      const ids = plan.id === 'gratis' ? undefined : prices[plan.id];
      return {
        id: plan.id,
        name: plan.name,
        price: plan.monthlyPrice,
        period: 'month' as const,
        priceId: ids?.monthly ?? null,
        productId: plan.id === 'gratis' ? null : (products[plan.id] ?? null),
        features: [...plan.features],
        popular: plan.popular,
        prices: {
          monthly: { amount: plan.monthlyPrice, priceId: ids?.monthly ?? null },
          annual: { amount: plan.annualPrice, priceId: ids?.annual ?? null },
        },
        limits: { ...plan.limits },
      };
    }),
  };
}
