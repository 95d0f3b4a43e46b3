/** What other folders may use from billing; everything else in the folder is its own business. */
export { aiTokenQuotaFor, getUserPlan, limitsEnforced, planLimitCheck } from './plan-limits';
export { billingRoutes } from './routes';
