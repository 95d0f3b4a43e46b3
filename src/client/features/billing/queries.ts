import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { SUBSCRIPTION_POLL_MS } from '@shared/constants';
import {
  FALLBACK_SUBSCRIPTION_STATUS,
  type PlansResponse,
  type SubscriptionStatus,
} from '@shared/schemas/billing';
import { useAuth } from '@client/features/auth';
import { fetchPlans, fetchSubscriptionStatus, PLANS_PATH, SUBSCRIPTION_STATUS_PATH } from './api';

const subscriptionStatusKey = (userId: string | undefined) => [SUBSCRIPTION_STATUS_PATH, userId] as const;
const plansKey = [PLANS_PATH] as const;

/**
 * The signed-in user's subscription: polled every SUBSCRIPTION_POLL_MS, and on any failure
 * it falls back to inactive Gratis (never shows a plan the writer may not have). Used by the Subscription tab
 * and the editor's user chip.
 */
export function useSubscriptionStatus() {
  const { user } = useAuth();
  const query = useQuery({
    queryKey: subscriptionStatusKey(user?.id),
    queryFn: async (): Promise<SubscriptionStatus> => {
      try {
        return await fetchSubscriptionStatus();
      } catch (error) {
        console.error('Failed to check subscription', error);
        return FALLBACK_SUBSCRIPTION_STATUS;
      }
    },
    enabled: !!user,
    refetchInterval: SUBSCRIPTION_POLL_MS,
  });
  return {
    status: query.data ?? FALLBACK_SUBSCRIPTION_STATUS,
    isLoading: query.isLoading,
    refetch: query.refetch,
  };
}

/** Re-reads the subscription now (after a payment or a portal visit). */
export function useRefreshSubscription() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  return useCallback(
    (next?: SubscriptionStatus) => {
      if (next) queryClient.setQueryData(subscriptionStatusKey(user?.id), next);
      // Prefix match: every cached copy of the status (whatever the rest of its key) is re-read.
      return queryClient.invalidateQueries({ queryKey: [SUBSCRIPTION_STATUS_PATH] });
    },
    [queryClient, user?.id],
  );
}

/** GET /api/plans: price ids of this server and whether it sells plans at all. */
export function usePlans() {
  const query = useQuery<PlansResponse>({ queryKey: plansKey, queryFn: fetchPlans });
  return { data: query.data, isLoading: query.isLoading, isError: query.isError };
}
