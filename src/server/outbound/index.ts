/**
 * Every request the server makes on a user's or an administrator's behalf (AI providers, model discovery,
 * health probes, and any later webhook or URL import) goes through this module: http(s) only, no redirects,
 * the resolved address checked at connect time, short timeouts, and error messages that never carry the
 * remote side's words. docs/ai.md ("Outbound requests") describes the rules.
 */
export { outboundPolicy, parseAllowEntry, refusalOf, type OutboundPolicy } from './address-policy';
export { OutboundClient } from './client';
export { OUTBOUND_GENERATION_TIMEOUT_MS } from './constants';
export { outboundFailureMessage } from './errors';
export { outboundPolicyFromConfig } from './config';
