// Placeholder until the Billing issue lands: the account dialog's Subscription tab.
export function SubscriptionTab() {
  return null;
}
