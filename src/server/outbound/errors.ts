/**
 * Why the guard refused a request. Thrown before a byte is sent (address, scheme) or instead of following a
 * redirect; the detail is for the server log, `outboundFailureMessage` is what a person may be shown.
 */
export class OutboundRefusedError extends Error {
  constructor(
    readonly reason: 'scheme' | 'address' | 'redirect',
    detail: string,
  ) {
    super(detail);
    this.name = 'OutboundRefusedError';
  }
}

/** Shown when the guard refused the address (decided from the address alone, before connecting). */
const OUTBOUND_ADDRESS_REFUSED_MESSAGE =
  'This address is not allowed: private, loopback and link-local addresses are refused unless listed in ' +
  'OUTBOUND_ALLOWED_HOSTS.';
/** Shown for every failure to get an HTTP answer: refused, reset, timed out, not HTTP, unreadable. */
const OUTBOUND_UNREACHABLE_MESSAGE = 'Could not reach the provider.';

/** The guard's refusal inside an error chain (`cause`, the AI SDK's `lastError`), if there is one. */
function outboundRefusalOf(error: unknown): OutboundRefusedError | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    if (current instanceof OutboundRefusedError) return current;
    seen.add(current);
    const next = current as { cause?: unknown; lastError?: unknown };
    current = next.lastError ?? next.cause;
  }
  return undefined;
}

/**
 * A fixed sentence for a failed request that got no HTTP status: the guard's refusal, a redirect, or
 * "could not reach". Never the error's own text, so a closed port, an open port that does not speak HTTP and
 * a connection that times out read the same.
 */
export function outboundFailureMessage(error: unknown): string {
  const refusal = outboundRefusalOf(error);
  if (refusal?.reason === 'address' || refusal?.reason === 'scheme') return OUTBOUND_ADDRESS_REFUSED_MESSAGE;
  if (refusal?.reason === 'redirect') return 'The provider answered with a redirect, which is not followed.';
  return OUTBOUND_UNREACHABLE_MESSAGE;
}
