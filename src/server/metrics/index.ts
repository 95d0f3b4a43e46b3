/** What other folders may use from metrics; everything else in the folder is its own business. */
export { recordHttpRequests } from './http';
export { registerMetricsRoute } from './routes';
export { secondsSince, ServerMetrics } from './server-metrics';
export type { AiCallOutcome } from './server-metrics';
