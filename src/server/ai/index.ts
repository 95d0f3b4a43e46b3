/** What other folders may use from ai; everything else in the folder is its own business. */
export { AiProviderRegistry } from './provider-registry';
export { saveProviderSettings } from './provider-settings';
export {
  AI_PROVIDER_FAILED_MESSAGE,
  describeProviderError,
  providerFailureMessage,
  providerHealth,
} from './providers';
export { EXPORT_PER_USER, perUserLimit } from './rate-limits';
export { aiRoutes } from './routes';
