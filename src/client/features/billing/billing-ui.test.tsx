import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLANS, planById } from '@shared/plans';
import type { PlansResponse, SubscriptionStatus } from '@shared/schemas/billing';
import { createQueryClient } from '@client/lib/query-client';
import { ApiError } from '@client/lib/api';

const mocks = vi.hoisted(() => ({
  user: { id: 'user-1', email: 'w@example.com' } as { id: string; email: string } | null,
  fetchSubscriptionStatus: vi.fn(),
  fetchPlans: vi.fn(),
  createCheckout: vi.fn(),
  createPortal: vi.fn(),
  toast: vi.fn(),
  openAuthDialog: vi.fn(),
}));

vi.mock('@client/features/auth/AuthProvider', () => ({ useAuth: () => ({ user: mocks.user }) }));
vi.mock('@client/features/auth/auth-dialog', () => ({
  useAuthDialog: () => ({ openAuthDialog: mocks.openAuthDialog }),
}));
vi.mock('@client/components/ui/use-toast', () => ({ toast: mocks.toast }));
vi.mock('./api', () => ({
  PLANS_PATH: '/api/plans',
  SUBSCRIPTION_STATUS_PATH: '/api/stripe/subscription-status',
  fetchSubscriptionStatus: mocks.fetchSubscriptionStatus,
  fetchPlans: mocks.fetchPlans,
  createCheckout: mocks.createCheckout,
  createPortal: mocks.createPortal,
}));

const { SubscriptionTab, periodLine } = await import('./SubscriptionTab');
const { PlanButton } = await import('@client/features/landing');
const { redirectTo } = await import('./actions');

function plansResponse(billingEnabled = true, priceIds = true): PlansResponse {
  return {
    billingEnabled,
    limitsEnforced: billingEnabled,
    plans: PLANS.map((p) => {
      const id = (period: string) => (p.id !== 'gratis' && priceIds ? `price_${p.id}_${period}` : null);
      return {
        id: p.id,
        name: p.name,
        price: p.monthlyPrice,
        period: 'month' as const,
        priceId: id('monthly'),
        productId: null,
        features: [...p.features],
        popular: p.popular,
        prices: {
          monthly: { amount: p.monthlyPrice, priceId: id('monthly') },
          annual: { amount: p.annualPrice, priceId: id('annual') },
        },
        limits: { ...p.limits },
      };
    }),
  };
}

const status = (over: Partial<SubscriptionStatus> = {}): SubscriptionStatus => ({
  isActive: true,
  planName: 'creator',
  status: 'active',
  currentPeriodEnd: '2026-12-22T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  ...over,
});

function renderWithQuery(node: ReactNode) {
  return render(<QueryClientProvider client={createQueryClient()}>{node}</QueryClientProvider>);
}

const buttonIn = (testId: string) => screen.getByTestId(testId).querySelector('button')!;

/** PlanButton loads the checkout button lazily for signed-in users; wait until it is clickable. */
async function readyPlanButton(): Promise<HTMLButtonElement> {
  await waitFor(() => expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(false));
  return screen.getByRole('button') as HTMLButtonElement;
}

beforeEach(() => {
  mocks.user = { id: 'user-1', email: 'w@example.com' };
  for (const fn of [
    mocks.fetchPlans,
    mocks.fetchSubscriptionStatus,
    mocks.createCheckout,
    mocks.createPortal,
  ]) {
    fn.mockReset();
  }
  mocks.toast.mockReset();
  mocks.openAuthDialog.mockReset();
  mocks.fetchPlans.mockResolvedValue(plansResponse());
  vi.spyOn(redirectTo, 'go').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('periodLine', () => {
  it('says renews or ends on the period end date per cancelAtPeriodEnd', () => {
    expect(periodLine(status())).toBe('Renews on December 22, 2026');
    expect(periodLine(status({ cancelAtPeriodEnd: true }))).toBe('Ends on December 22, 2026');
    expect(periodLine(status({ currentPeriodEnd: null }))).toBeNull();
  });
});

describe('SubscriptionTab', () => {
  it('shows the plan, status and end date, Current Plan disabled, lower plans via the portal', async () => {
    mocks.fetchSubscriptionStatus.mockResolvedValue(status({ cancelAtPeriodEnd: true }));
    renderWithQuery(<SubscriptionTab />);
    await waitFor(() => expect(screen.getByTestId('current-plan-badge').textContent).toBe('Creator'));
    expect(screen.getByTestId('subscription-status').textContent).toBe('Active');
    expect(screen.getByTestId('subscription-period').textContent).toBe('Ends on December 22, 2026');
    expect(buttonIn('subscription-plan-creator').textContent).toBe('Current Plan');
    expect(buttonIn('subscription-plan-creator').disabled).toBe(true);
    expect(buttonIn('subscription-plan-gratis').textContent).toBe('Manage via Billing Portal');
    expect(buttonIn('subscription-plan-gratis').disabled).toBe(true);
    await waitFor(() => expect(buttonIn('subscription-plan-professional').disabled).toBe(false));
  });

  it('falls back to Gratis, shown as the active free plan, when the status cannot be loaded', async () => {
    mocks.fetchSubscriptionStatus.mockRejectedValue(new ApiError(500, 'boom', null));
    renderWithQuery(<SubscriptionTab />);
    await waitFor(() => expect(screen.getByTestId('subscription-status').textContent).toBe('Active'));
    expect(screen.getByTestId('current-plan-badge').textContent).toBe('Gratis');
    expect(buttonIn('subscription-plan-gratis').textContent).toBe('Current Plan');
  });

  it('a Gratis user upgrades through Checkout with the period chosen by the switch', async () => {
    mocks.fetchSubscriptionStatus.mockResolvedValue(
      status({ planName: 'gratis', isActive: false, status: 'inactive', currentPeriodEnd: null }),
    );
    mocks.createCheckout.mockResolvedValue({ url: 'https://checkout.example/cs_1' });
    renderWithQuery(<SubscriptionTab />);
    await waitFor(() => expect(buttonIn('subscription-plan-creator').textContent).toBe('Upgrade to Creator'));
    fireEvent.click(screen.getByRole('switch', { name: 'Annual billing' }));
    expect(screen.getByTestId('subscription-plan-creator').textContent).toContain('$120/year');
    fireEvent.click(buttonIn('subscription-plan-creator'));
    await waitFor(() => expect(redirectTo.go).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    expect(mocks.createCheckout).toHaveBeenCalledWith('price_creator_annual', 'create-checkout');
  });

  it('Manage Billing failing shows the Portal Error toast', async () => {
    mocks.fetchSubscriptionStatus.mockResolvedValue(status());
    mocks.createPortal.mockRejectedValue(new Error('network down'));
    renderWithQuery(<SubscriptionTab />);
    const manage = await screen.findByRole('button', { name: /Manage Billing/ });
    fireEvent.click(manage);
    await waitFor(() =>
      expect(mocks.toast).toHaveBeenCalledWith({
        title: 'Portal Error',
        description: 'Failed to open billing portal. Please try again.',
        variant: 'destructive',
      }),
    );
  });

  it('without billing on the server, higher plans say billing is not set up', async () => {
    mocks.fetchPlans.mockResolvedValue(plansResponse(false, false));
    mocks.fetchSubscriptionStatus.mockResolvedValue(
      status({ planName: 'gratis', isActive: false, status: 'inactive', currentPeriodEnd: null }),
    );
    renderWithQuery(<SubscriptionTab />);
    await waitFor(() => expect(buttonIn('subscription-plan-creator').textContent).toBe('Billing not set up'));
    expect(buttonIn('subscription-plan-creator').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: /Manage Billing/ })).toBeNull();
  });
});

describe('PlanButton (landing pricing)', () => {
  it('a visitor is sent to sign-up', async () => {
    mocks.user = null;
    renderWithQuery(<PlanButton plan={planById('creator')} period="monthly" />);
    fireEvent.click(screen.getByRole('button'));
    expect(mocks.openAuthDialog).toHaveBeenCalledWith('signup');
    expect(mocks.createCheckout).not.toHaveBeenCalled();
  });

  it('a signed-in user on the free plan gets the Free Plan info toast', async () => {
    renderWithQuery(<PlanButton plan={planById('gratis')} period="monthly" />);
    fireEvent.click(await readyPlanButton());
    expect(mocks.toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Free Plan' }));
    expect(mocks.createCheckout).not.toHaveBeenCalled();
  });

  it('a signed-in user starts checkout at the pricing endpoint and goes to the returned URL', async () => {
    mocks.createCheckout.mockResolvedValue({ url: 'https://checkout.example/cs_2' });
    renderWithQuery(<PlanButton plan={planById('professional')} period="monthly" />);
    await waitFor(() => expect(mocks.fetchPlans).toHaveBeenCalled());
    fireEvent.click(await readyPlanButton());
    await waitFor(() => expect(redirectTo.go).toHaveBeenCalledWith('https://checkout.example/cs_2'));
    expect(mocks.createCheckout).toHaveBeenCalledWith(
      'price_professional_monthly',
      'create-checkout-session',
    );
  });

  it('a missing price id, a failure and an empty URL give their error toasts', async () => {
    mocks.fetchPlans.mockResolvedValue(plansResponse(true, false));
    const view = renderWithQuery(<PlanButton plan={planById('creator')} period="annual" />);
    await waitFor(() => expect(mocks.fetchPlans).toHaveBeenCalled());
    fireEvent.click(await readyPlanButton());
    expect(mocks.toast).toHaveBeenCalledWith({
      title: 'Error',
      description: 'Price information not available.',
      variant: 'destructive',
    });
    view.unmount();

    mocks.fetchPlans.mockResolvedValue(plansResponse());
    mocks.createCheckout.mockRejectedValueOnce(
      new ApiError(502, 'x', { message: 'Failed to create checkout session' }),
    );
    mocks.createCheckout.mockResolvedValueOnce({ url: '' });
    renderWithQuery(<PlanButton plan={planById('creator')} period="annual" />);
    await waitFor(() => expect(mocks.fetchPlans).toHaveBeenCalledTimes(2));
    fireEvent.click(await readyPlanButton());
    await waitFor(() =>
      expect(mocks.toast).toHaveBeenLastCalledWith({
        title: 'Payment Error',
        description: 'Failed to create checkout session',
        variant: 'destructive',
      }),
    );
    fireEvent.click(await readyPlanButton());
    await waitFor(() =>
      expect(mocks.toast).toHaveBeenLastCalledWith({
        title: 'Payment Error',
        description: 'No checkout URL received',
        variant: 'destructive',
      }),
    );
    expect(redirectTo.go).not.toHaveBeenCalled();
  });

  it('signed in on a server without billing, paid plans say billing is not set up', async () => {
    mocks.fetchPlans.mockResolvedValue(plansResponse(false, false));
    renderWithQuery(<PlanButton plan={planById('creator')} period="monthly" />);
    await waitFor(() => expect(screen.getByRole('button').textContent).toBe('Billing not set up'));
    expect((screen.getByRole('button') as HTMLButtonElement).disabled).toBe(true);
  });
});
