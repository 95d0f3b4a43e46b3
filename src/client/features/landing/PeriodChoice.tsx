import type { BillingPeriod } from '@shared/plans';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { PERIOD_GROUP_CLASS, PERIOD_OPTIONS, PeriodLabel, periodItemClass } from './period-switch';

/** Monthly / Annual, the radio group with its keyboard (see PeriodSwitch in Pricing.tsx, which loads it). */
export function PeriodChoice({
  period,
  onChange,
}: {
  period: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
}) {
  return (
    <ChoiceGroup
      aria-label="Billing period"
      orientation="horizontal"
      value={period}
      onValueChange={(value) => onChange(value as BillingPeriod)}
      className={PERIOD_GROUP_CLASS}
    >
      {PERIOD_OPTIONS.map(({ value, label }) => (
        <ChoiceItem key={value} value={value} className={periodItemClass(period === value)}>
          <PeriodLabel value={value} label={label} checked={period === value} />
        </ChoiceItem>
      ))}
    </ChoiceGroup>
  );
}
