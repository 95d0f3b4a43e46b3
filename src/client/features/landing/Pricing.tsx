import { Check, Mail, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { MONEY_BACK_GUARANTEE_DAYS } from '@shared/constants';
import { PLANS, type BillingPeriod, type PlanDefinition } from '@shared/plans';
import { Badge } from '@client/components/ui/badge';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import { cn } from '@client/lib/utils';
import { PERIOD_GROUP_CLASS, PERIOD_OPTIONS, PeriodLabel, periodItemClass } from './period-switch';
import { PlanButton } from './PlanButton';

const SALES_EMAIL = 'sales@quillwright.app';

const PLAN_TAGLINES: Record<PlanDefinition['id'], string> = {
  gratis: 'Try Quillwright and write your first documents.',
  creator: 'For writers who publish every week.',
  professional: 'For professionals who need the strongest models.',
};

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
function price(amount: number): string {
  return usd.format(amount).replace(/\.00$/, '');
}

// The radio group's keyboard comes with its library (Radix), which the first paint does not need: fetched right
// after the page mounts. Until then the switch is drawn the same, and a click on a segment already switches.
const periodChoice = onDemand(async () => (await import('./PeriodChoice')).PeriodChoice);

function PeriodSwitch({ period, onChange }: { period: BillingPeriod; onChange: (p: BillingPeriod) => void }) {
  return (
    <OnDemandControl
      control={periodChoice}
      standIn={
        <div
          role="radiogroup"
          aria-label="Billing period"
          aria-required="false"
          aria-orientation="horizontal"
          dir="ltr"
          data-orientation="horizontal"
          className={PERIOD_GROUP_CLASS}
          style={{ outline: 'none' }}
          data-slot="choice-group"
        >
          {PERIOD_OPTIONS.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={value === period}
              data-state={value === period ? 'checked' : 'unchecked'}
              value={value}
              tabIndex={value === period ? 0 : -1}
              data-orientation="horizontal"
              data-slot="choice-item"
              className={periodItemClass(value === period)}
              onClick={() => onChange(value)}
            >
              <PeriodLabel value={value} label={label} checked={value === period} />
            </button>
          ))}
        </div>
      }
    >
      {(PeriodChoice) => <PeriodChoice period={period} onChange={onChange} />}
    </OnDemandControl>
  );
}

function PlanCard({ plan, period }: { plan: PlanDefinition; period: BillingPeriod }) {
  const annual = period === 'annual';
  const free = plan.monthlyPrice === 0;
  const amount = annual ? plan.annualPrice : plan.monthlyPrice;
  return (
    <li
      data-testid={`plan-${plan.id}`}
      className={cn(
        'relative flex flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-sm sm:p-8',
        plan.popular && 'border-primary shadow-xl shadow-primary/10 ring-1 ring-primary lg:-my-4 lg:py-12',
      )}
    >
      {plan.popular && (
        <Badge className="absolute -top-3 left-1/2 -translate-x-1/2 px-3 py-1 shadow-sm">Most Popular</Badge>
      )}
      <h3 className="text-xl font-semibold">{plan.name}</h3>
      <p className="mt-2 text-sm text-muted-foreground">{PLAN_TAGLINES[plan.id]}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight">{price(amount)}</span>
        <span className="text-muted-foreground">{annual ? '/year' : '/month'}</span>
      </p>
      <p className="mt-1 h-5 text-sm text-muted-foreground">
        {free
          ? 'Free plan, no card required'
          : annual
            ? `${price(plan.annualPrice / 12)}/month, billed yearly`
            : 'Billed monthly, cancel anytime'}
      </p>
      <div className="mt-6">
        <PlanButton plan={plan} period={period} />
      </div>
      <ul className="mt-8 space-y-3 text-sm" aria-label={`${plan.name} includes`}>
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-start gap-3">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </li>
  );
}

export function Pricing() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  return (
    <section
      id="pricing"
      aria-labelledby="pricing-title"
      className="scroll-mt-20 border-t bg-muted/30 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="pricing-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Simple, transparent pricing
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">
            Start free. Upgrade when your writing needs more room and more AI.
          </p>
          <div className="mt-8">
            <PeriodSwitch period={period} onChange={setPeriod} />
          </div>
        </div>
        <ul className="mt-14 grid gap-8 lg:grid-cols-3 lg:gap-6">
          {PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} period={period} />
          ))}
        </ul>
        <div className="mt-12 flex flex-col items-center gap-3 text-center text-sm text-muted-foreground">
          <p className="inline-flex items-center gap-2">
            <ShieldCheck className="size-5 text-success" aria-hidden="true" />
            Every paid plan comes with a {MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee.
          </p>
          <p className="inline-flex items-center gap-2">
            <Mail className="size-4" aria-hidden="true" />
            Writing as a team or need invoicing?{' '}
            <a
              href={`mailto:${SALES_EMAIL}`}
              className="rounded-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Contact sales
            </a>
          </p>
        </div>
      </div>
    </section>
  );
}
