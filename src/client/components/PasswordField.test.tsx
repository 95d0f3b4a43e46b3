import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { PasswordField } from './PasswordField';

afterEach(cleanup);

it('names a required password input by its label and reports what is typed', () => {
  const onChange = vi.fn();
  render(
    <PasswordField id="pw" label="Password" autoComplete="current-password" value="" onChange={onChange} />,
  );
  const input = screen.getByLabelText('Password');
  expect(input).toHaveProperty('type', 'password');
  expect(input).toHaveProperty('required', true);
  expect(input.getAttribute('autocomplete')).toBe('current-password');
  expect(input.hasAttribute('minlength')).toBe(false);
  expect(input.hasAttribute('aria-invalid')).toBe(false);
  fireEvent.change(input, { target: { value: 'secret-words' } });
  expect(onChange).toHaveBeenCalledWith('secret-words');
});

it('states the minimum length it enforces, unless given another hint', () => {
  const { rerender } = render(
    <PasswordField
      id="pw"
      label="New password"
      autoComplete="new-password"
      minLength={12}
      value=""
      onChange={vi.fn()}
    />,
  );
  expect(screen.getByLabelText('New password').getAttribute('minlength')).toBe('12');
  expect(screen.getByText('At least 12 characters.')).toBeTruthy();
  rerender(
    <PasswordField
      id="pw"
      label="New password"
      autoComplete="new-password"
      value=""
      onChange={vi.fn()}
      hint="Why."
    />,
  );
  expect(screen.queryByText(/At least/u)).toBeNull();
  expect(screen.getByText('Why.')).toBeTruthy();
});

it('marks the input invalid and keeps what sits beside the label out of its name', () => {
  render(
    <PasswordField
      id="pw"
      label="Password"
      autoComplete="current-password"
      value=""
      onChange={vi.fn()}
      invalid
      labelAside={<button type="button">Forgot password?</button>}
    />,
  );
  const input = screen.getByLabelText('Password');
  expect(input.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
});
