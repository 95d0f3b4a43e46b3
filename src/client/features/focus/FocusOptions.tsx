import { ScanText } from 'lucide-react';
import { useId } from 'react';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { Label } from '@client/components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { Switch } from '@client/components/ui/switch';
import { cn } from '@client/lib/utils';
import { setFocusSettings, useFocusSettings, type DimUnit } from './settings';

const UNITS: { value: DimUnit; label: string }[] = [
  { value: 'sentence', label: 'Sentence' },
  { value: 'paragraph', label: 'Paragraph' },
];

function SwitchRow(props: {
  label: string;
  description: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  testId: string;
}) {
  const id = useId();
  const descriptionId = useId();
  return (
    <div className="flex items-start justify-between gap-3">
      <div className="grid gap-0.5">
        <Label htmlFor={id}>{props.label}</Label>
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {props.description}
        </p>
      </div>
      <Switch
        id={id}
        aria-describedby={descriptionId}
        checked={props.checked}
        onCheckedChange={props.onCheckedChange}
        data-testid={props.testId}
      />
    </div>
  );
}

/**
 * The toolbar's Typewriter and dimming options, beside Focus (a name without "Focus" in it, so the Focus toggle
 * keeps its name to itself for speech users): typewriter scrolling and focus dimming (sentence or paragraph),
 * remembered in this browser. The trigger is highlighted while either is on, so a dimmed page explains itself.
 */
export function FocusOptions() {
  const settings = useFocusSettings();
  const anyOn = settings.typewriter || settings.dimming;
  const unitLabelId = useId();
  return (
    <Popover>
      <PopoverTrigger
        aria-label="Typewriter and dimming"
        title="Typewriter scrolling and focus dimming"
        data-testid="focus-options"
        className={cn(
          'inline-flex h-8 min-w-8 shrink-0 items-center justify-center gap-1 rounded-md px-2 text-sm transition-colors hover:bg-accent hover:text-accent-foreground data-[state=open]:bg-accent [&_svg]:size-4',
          anyOn && 'bg-accent text-accent-foreground',
        )}
      >
        <ScanText aria-hidden />
        <span className="hidden text-xs 2xl:inline">Typewriter and dimming</span>
      </PopoverTrigger>
      <PopoverContent align="start" className="grid w-80 gap-4" aria-label="Typewriter and dimming">
        <SwitchRow
          label="Typewriter scrolling"
          description="The line you are writing stays near the middle of the window; the page scrolls instead."
          checked={settings.typewriter}
          onCheckedChange={(typewriter) => setFocusSettings({ typewriter })}
          testId="typewriter-switch"
        />
        <SwitchRow
          label="Focus dimming"
          description="Everything but the sentence or paragraph you are in is shown quieter."
          checked={settings.dimming}
          onCheckedChange={(dimming) => setFocusSettings({ dimming })}
          testId="dimming-switch"
        />
        <div className="grid gap-1.5">
          <p id={unitLabelId} className="text-xs text-muted-foreground">
            Dim all but the current
          </p>
          <ChoiceGroup
            aria-labelledby={unitLabelId}
            value={settings.dimUnit}
            // Choosing what stays lit is asking for dimming.
            onValueChange={(value) => setFocusSettings({ dimUnit: value as DimUnit, dimming: true })}
            className="grid grid-cols-2 gap-2"
          >
            {UNITS.map(({ value, label }) => (
              <ChoiceItem
                key={value}
                value={value}
                className={cn(
                  'rounded-md border px-3 py-1.5 text-sm font-medium transition-colors hover:bg-accent',
                  'data-[state=checked]:border-primary data-[state=checked]:bg-primary/5 data-[state=checked]:text-primary',
                )}
              >
                {label}
              </ChoiceItem>
            ))}
          </ChoiceGroup>
        </div>
      </PopoverContent>
    </Popover>
  );
}
