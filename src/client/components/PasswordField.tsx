import type { ReactNode } from 'react';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';

interface PasswordFieldProps {
  id: string;
  label: string;
  /** 'current-password' lets the browser fill a saved one; 'new-password' lets it offer a generated one. */
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (value: string) => void;
  name?: string;
  /** The browser refuses shorter ones before sending, and the field says so under it. */
  minLength?: number;
  /** A line under the field; without one, a field with a minLength states the minimum. */
  hint?: ReactNode;
  invalid?: boolean;
  /** Shown at the end of the label's row (a "Forgot password?" link). */
  labelAside?: ReactNode;
}

/** A required password input with its label and, when there is one, a hint under it. */
export function PasswordField({
  id,
  label,
  autoComplete,
  value,
  onChange,
  name,
  minLength,
  hint,
  invalid,
  labelAside,
}: PasswordFieldProps) {
  const labelElement = <Label htmlFor={id}>{label}</Label>;
  const note = hint ?? (minLength === undefined ? null : `At least ${minLength} characters.`);
  return (
    <div className="grid gap-2">
      {labelAside ? (
        <div className="flex items-center justify-between">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      <Input
        id={id}
        name={name}
        type="password"
        autoComplete={autoComplete}
        required
        minLength={minLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid ? true : undefined}
      />
      {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
    </div>
  );
}
