export { SubscriptionTab } from './SubscriptionTab';
export { priceIdFor, useCheckout } from './actions';
export { usePlans } from './queries';
