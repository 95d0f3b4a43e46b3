import { PLANS, type BillingPeriod, type PlanDefinition } from '@shared/plans';
import { cn } from '@client/lib/utils';

export const PERIOD_OPTIONS: { value: BillingPeriod; label: string }[] = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'annual', label: 'Annual' },
];

export const PERIOD_GROUP_CLASS = 'inline-flex rounded-full border bg-card p-1 shadow-xs';

/** A segment; the choice-group item's own focus ring included, so its stand-in looks the same. */
export function periodItemClass(checked: boolean): string {
  return cn(
    'outline-none focus-visible:ring-2 focus-visible:ring-ring',
    'inline-flex items-center gap-2 rounded-full px-4 py-1.5 text-sm font-medium transition-colors',
    checked ? 'bg-primary text-primary-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
  );
}

/** Whole months saved by paying yearly, e.g. $120/yr against $12/mo → 2. */
function monthsFree(plan: PlanDefinition): number {
  if (plan.monthlyPrice === 0) return 0;
  return Math.round((plan.monthlyPrice * 12 - plan.annualPrice) / plan.monthlyPrice);
}

/** A segment's text: the period, and on Annual the months it saves. */
export function PeriodLabel({
  value,
  label,
  checked,
}: {
  value: BillingPeriod;
  label: string;
  checked: boolean;
}) {
  const saving = Math.max(...PLANS.map(monthsFree));
  return (
    <>
      {label}
      {value === 'annual' && saving > 0 && (
        <span
          className={cn(
            'rounded-full px-1.5 py-0.5 text-xs',
            checked ? 'bg-primary-foreground/20' : 'bg-accent text-accent-foreground',
          )}
        >
          {saving} months free
        </span>
      )}
    </>
  );
}
