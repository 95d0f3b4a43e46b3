import { format } from 'date-fns';
import { Check, CreditCard, ExternalLink, Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import {
  PLANS,
  isHigherPlan,
  planById,
  type BillingPeriod,
  type PlanDefinition,
  type PlanId,
} from '@shared/plans';
import type { SubscriptionStatus } from '@shared/schemas/billing';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Label } from '@client/components/ui/label';
import { Switch } from '@client/components/ui/switch';
import { cn } from '@client/lib/utils';
import { BILLING_MESSAGES, priceIdFor, useCheckout, usePortal } from './actions';
import { usePlans, useSubscriptionStatus } from './queries';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const price = (amount: number) => usd.format(amount).replace(/\.00$/, '');

/**
 * 'Renews on …' or 'Ends on …' (as cancelAtPeriodEnd says), or null without a period end (free or granted
 * plans).
 */
export function periodLine(status: SubscriptionStatus): string | null {
  if (!status.currentPeriodEnd) return null;
  const date = format(new Date(status.currentPeriodEnd), 'MMMM d, yyyy');
  return status.cancelAtPeriodEnd ? `Ends on ${date}` : `Renews on ${date}`;
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment past due',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
  incomplete_expired: 'Expired',
  paused: 'Paused',
  inactive: 'Inactive',
};

const FREE_PLAN: PlanId = 'gratis';

/** A Stripe subscription has a period end; a granted or free plan has none. */
const hasStripeSubscription = (status: SubscriptionStatus) => status.currentPeriodEnd !== null;

/**
 * The status shown beside the plan badge. The free plan has no subscription behind it, so the server reports it
 * as 'inactive'; to the writer it is the plan they are on, and it is active.
 */
function statusLabel(status: SubscriptionStatus): string {
  if (status.planName === FREE_PLAN && !hasStripeSubscription(status)) return 'Active';
  return STATUS_LABELS[status.status] ?? status.status;
}

/** The account dialog's Subscription tab: plan badge, status, period end, Manage Billing, plan cards. */
export function SubscriptionTab() {
  const { status, isLoading } = useSubscriptionStatus();
  const { data: plans } = usePlans();
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const checkout = useCheckout('create-checkout');
  const portal = usePortal();
  const switchId = useId();
  const current = planById(status.planName);
  const billingEnabled = plans?.billingEnabled ?? false;
  const line = periodLine(status);

  return (
    <div className="space-y-6" data-testid="subscription-tab">
      <section className="rounded-lg border p-4" aria-label="Current plan">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="space-y-1">
            <p className="text-sm text-muted-foreground">Current plan</p>
            <div className="flex items-center gap-2">
              <Badge data-testid="current-plan-badge" className="text-sm">
                {current.name}
              </Badge>
              <span className="text-sm" data-testid="subscription-status">
                {isLoading ? 'Checking…' : statusLabel(status)}
              </span>
            </div>
            {line && (
              <p className="text-sm text-muted-foreground" data-testid="subscription-period">
                {line}
              </p>
            )}
          </div>
          {billingEnabled && hasStripeSubscription(status) && (
            <Button variant="outline" onClick={() => void portal.open()} disabled={portal.pending}>
              {portal.pending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <CreditCard aria-hidden="true" />
              )}
              Manage Billing
              <ExternalLink aria-hidden="true" />
            </Button>
          )}
        </div>
        {!billingEnabled && plans && (
          <p className="mt-3 text-sm text-muted-foreground">
            {BILLING_MESSAGES.billingDisabled} Plans are assigned by the administrator.
          </p>
        )}
      </section>

      <div className="flex items-center justify-end gap-2">
        <Label htmlFor={switchId} className="text-sm">
          Monthly
        </Label>
        <Switch
          id={switchId}
          checked={period === 'annual'}
          onCheckedChange={(annual) => setPeriod(annual ? 'annual' : 'monthly')}
          aria-label="Annual billing"
        />
        <Label htmlFor={switchId} className="text-sm">
          Annual
        </Label>
      </div>

      <ul className="grid gap-4 md:grid-cols-3">
        {PLANS.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            period={period}
            status={status}
            billingEnabled={billingEnabled}
            pending={checkout.pendingPlan === plan.id || portal.pending}
            onChoose={() => {
              if (hasStripeSubscription(status)) void portal.open();
              else void checkout.start(plan.id, priceIdFor(plans, plan.id, period));
            }}
          />
        ))}
      </ul>
    </div>
  );
}

function PlanCard(props: {
  plan: PlanDefinition;
  period: BillingPeriod;
  status: SubscriptionStatus;
  billingEnabled: boolean;
  pending: boolean;
  onChoose: () => void;
}) {
  const { plan, period, status, billingEnabled, pending, onChoose } = props;
  const isCurrent = plan.id === status.planName;
  const isLower = isHigherPlan(status.planName, plan.id);
  const amount = period === 'annual' ? plan.annualPrice : plan.monthlyPrice;

  const actionable = !isCurrent && !isLower && billingEnabled;
  const label = isCurrent
    ? 'Current Plan'
    : isLower
      ? 'Manage via Billing Portal'
      : !billingEnabled
        ? 'Billing not set up'
        : hasStripeSubscription(status)
          ? 'Upgrade in Billing Portal'
          : `Upgrade to ${plan.name}`;

  return (
    <li
      data-testid={`subscription-plan-${plan.id}`}
      className={cn('flex flex-col rounded-lg border p-4', isCurrent && 'border-primary ring-1 ring-primary')}
    >
      <div className="flex items-center justify-between gap-2">
        <h4 className="font-semibold">{plan.name}</h4>
        {plan.popular && <Badge variant="secondary">Most Popular</Badge>}
      </div>
      <p className="mt-2">
        <span className="text-2xl font-bold">{price(amount)}</span>
        <span className="text-sm text-muted-foreground">{period === 'annual' ? '/year' : '/month'}</span>
      </p>
      <ul className="mt-3 flex-1 space-y-1.5 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
      <Button
        className="mt-4 w-full"
        variant={isCurrent || isLower ? 'outline' : 'default'}
        disabled={!actionable || pending}
        onClick={onChoose}
      >
        {actionable && pending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {label}
      </Button>
    </li>
  );
}
