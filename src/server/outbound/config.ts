import type { Config } from '../config';
import { outboundPolicy, parseAllowEntry, parseAllowList, type OutboundPolicy } from './address-policy';

/**
 * The policy of this instance: OUTBOUND_ALLOWED_HOSTS, plus the addresses the operator chose elsewhere in the
 * environment (`trustedUrls`: the providers' base URLs, the local model servers to detect), each for its own
 * host and port only. A bad entry stops the start with the variable's name.
 */
export function outboundPolicyFromConfig(
  config: Pick<Config, 'OUTBOUND_ALLOWED_HOSTS'>,
  trustedUrls: (string | undefined)[] = [],
): OutboundPolicy {
  let allowed;
  try {
    allowed = parseAllowList(config.OUTBOUND_ALLOWED_HOSTS);
  } catch (error) {
    throw new Error(`OUTBOUND_ALLOWED_HOSTS: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  const trusted = trustedUrls.filter((url): url is string => Boolean(url)).map(parseAllowEntry);
  return outboundPolicy([...allowed, ...trusted]);
}
