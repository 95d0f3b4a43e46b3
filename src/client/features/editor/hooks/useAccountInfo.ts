import { useQuery } from '@tanstack/react-query';
import { SUBSCRIPTION_POLL_MS } from '@shared/constants';
import { PLANS } from '@shared/plans';
import { getQueryFn } from '@client/lib/query-client';

interface SubscriptionStatus {
  isActive: boolean;
  planName: string;
}

const FALLBACK_PLAN = PLANS[0]?.name ?? 'Gratis';

/** The user's real plan name for the user chip (GET /api/stripe/subscription-status), 'Gratis' until known. */
export function usePlanName(enabled: boolean): string {
  const { data } = useQuery<SubscriptionStatus | null>({
    queryKey: ['/api/stripe/subscription-status'],
    queryFn: getQueryFn<SubscriptionStatus>({ on401: 'returnNull' }),
    enabled,
    refetchInterval: SUBSCRIPTION_POLL_MS,
  });
  const id = data?.planName?.toLowerCase();
  return PLANS.find((plan) => plan.id === id)?.name ?? FALLBACK_PLAN;
}

/** 'AI Writing Enabled' when GET /api/ai/health reports at least one provider available. */
export function useAiEnabled(enabled: boolean): boolean {
  const { data } = useQuery<Record<string, unknown> | null>({
    queryKey: ['/api/ai/health'],
    queryFn: getQueryFn<Record<string, unknown>>({ on401: 'returnNull' }),
    enabled,
  });
  if (!data || typeof data !== 'object') return false;
  return Object.values(data).some((value) => value === true);
}
