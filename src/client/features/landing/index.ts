// The pricing section's plan button (its checkout behaviour is tested with billing's).
export { PlanButton } from './PlanButton';
