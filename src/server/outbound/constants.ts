/**
 * Time limits of every request the server makes on someone's behalf (AI providers, model discovery, health
 * probes). Short on purpose: an address that accepts a connection and then says nothing must not hold a
 * request, a worker or a probe for long.
 */

/** TCP connect plus TLS handshake. */
export const OUTBOUND_CONNECT_TIMEOUT_MS = 5_000;
/** Whole request, headers and body, when the caller names no other budget. */
export const OUTBOUND_TOTAL_TIMEOUT_MS = 10_000;
/** Longest silence between two chunks of a response body (an AI stream pauses between tokens). */
export const OUTBOUND_IDLE_TIMEOUT_MS = 30_000;
/** Idle kept-alive connections are closed after this long. */
export const OUTBOUND_KEEP_ALIVE_MS = 30_000;
/**
 * Whole request for an answer generated while it is sent (an AI completion of up to AI_MAX_OUTPUT_TOKENS at a
 * slow model's 30 tokens a second is about 140 s).
 */
export const OUTBOUND_GENERATION_TIMEOUT_MS = 180_000;
