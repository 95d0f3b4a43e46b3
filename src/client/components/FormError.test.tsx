import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '@client/lib/api';
import { FormErrorAlert, toFormError } from './FormError';

afterEach(cleanup);

it("shows the server's message and its reasons, in words, as a list", () => {
  const refused = new ApiError(422, 'weak', {
    message: 'Password is too weak.',
    code: 'weak_password',
    reasons: ['length', 'common'],
  });
  render(<FormErrorAlert id="form-error" error={toFormError(refused)} />);
  const alert = screen.getByRole('alert');
  expect(alert.id).toBe('form-error');
  expect(within(alert).getByText('Password is too weak.')).toBeTruthy();
  expect(
    within(alert)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(['Use at least 8 characters.', 'Avoid common passwords that are easy to guess.']);
});

it('shows a message alone, without an empty list, for any other error', () => {
  expect(toFormError(new Error('Network down'))).toEqual({ message: 'Network down', reasons: [] });
  render(<FormErrorAlert error={toFormError(new Error('Network down'))} />);
  expect(screen.getByRole('alert').textContent).toBe('Network down');
  expect(screen.queryByRole('list')).toBeNull();
});
