import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import {
  EDITING_MODE_GROUP_CLASS,
  EDITING_MODE_SEGMENT_CLASS,
  EDITING_MODES,
  type EditingMode,
} from './editing-modes';

/** The Editing / Suggesting radio group, with its keyboard (see SuggestingModeSwitch, which loads it). */
export function EditingModeChoice({
  mode,
  onModeChange,
}: {
  mode: EditingMode;
  onModeChange: (mode: EditingMode) => void;
}) {
  return (
    <ChoiceGroup
      aria-label="Editing mode"
      className={EDITING_MODE_GROUP_CLASS}
      value={mode}
      onValueChange={(value) => onModeChange(value as EditingMode)}
      data-testid="editing-mode"
    >
      {EDITING_MODES.map(({ value, title, label, Icon }) => (
        <ChoiceItem key={value} value={value} className={EDITING_MODE_SEGMENT_CLASS} title={title}>
          <Icon className="size-3.5" aria-hidden="true" />
          {/* On a phone the icons stand alone; the names stay for screen readers. */}
          <span className="sr-only sm:not-sr-only">{label}</span>
        </ChoiceItem>
      ))}
    </ChoiceGroup>
  );
}
