import { isIP } from 'node:net';
import type { Dispatcher, buildConnector as BuildConnector } from 'undici';
import { refusalOf, type OutboundPolicy } from './address-policy';
import {
  OUTBOUND_CONNECT_TIMEOUT_MS,
  OUTBOUND_IDLE_TIMEOUT_MS,
  OUTBOUND_KEEP_ALIVE_MS,
  OUTBOUND_TOTAL_TIMEOUT_MS,
} from './constants';
import { OutboundRefusedError } from './errors';

type Undici = typeof import('undici').default;

/**
 * undici, loaded with the first outbound request: a server that never calls out never holds it. The
 * CommonJS module itself (`default`): a bundled dynamic import exposes no named exports for it.
 */
let undiciModule: Promise<Undici> | undefined;
function loadUndici(): Promise<Undici> {
  undiciModule ??= import('undici').then(({ default: undici }) => undici);
  return undiciModule;
}

/** The address to connect to: the first resolved address the policy allows (IP literals as they are). */
async function allowedAddress(policy: OutboundPolicy, hostname: string, port: number): Promise<string> {
  const addresses = isIP(hostname) ? [hostname] : (await policy.resolve(hostname)).map((a) => a.address);
  if (addresses.length === 0) throw new OutboundRefusedError('address', `${hostname} has no address`);
  let firstRefusal: string | undefined;
  for (const address of addresses) {
    const refusal = refusalOf(policy, hostname, address, port);
    if (!refusal) return address;
    firstRefusal ??= refusal;
  }
  throw new OutboundRefusedError('address', firstRefusal!);
}

/**
 * A connector that resolves the host itself, checks the address, and connects to exactly that address
 * (TLS still verifies the certificate against the host name), so what was checked is what is connected to.
 */
function guardedConnector(undici: Undici, policy: OutboundPolicy): BuildConnector.connector {
  const connect = undici.buildConnector({ timeout: OUTBOUND_CONNECT_TIMEOUT_MS });
  return (options, callback) => {
    const hostname = options.hostname.replace(/^\[|\]$/g, '');
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    if (options.protocol !== 'http:' && options.protocol !== 'https:') {
      callback(new OutboundRefusedError('scheme', `${options.protocol} is not http or https`), null);
      return;
    }
    allowedAddress(policy, hostname, port).then(
      (address) =>
        connect(
          {
            ...options,
            hostname: address,
            ...(isIP(hostname) ? {} : { servername: options.servername ?? hostname }),
          },
          callback,
        ),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  };
}

/** An undici Agent whose every connection passes the policy. Redirects are never followed by undici's Agent. */
async function createGuardedAgent(policy: OutboundPolicy): Promise<Dispatcher> {
  const undici = await loadUndici();
  return new undici.Agent({
    connect: guardedConnector(undici, policy),
    keepAliveTimeout: OUTBOUND_KEEP_ALIVE_MS,
    bodyTimeout: OUTBOUND_IDLE_TIMEOUT_MS,
  });
}

function assertHttpUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefusedError('scheme', 'not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new OutboundRefusedError('scheme', `${parsed.protocol} is not http or https`);
  return parsed;
}

export interface GuardedRequestOptions {
  /** Total budget of the request (headers and body); OUTBOUND_TOTAL_TIMEOUT_MS unless given. */
  timeoutMs?: number;
}

/** The caller's signal and the total budget, whichever ends first. */
function withTimeout(signal: AbortSignal | null | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/**
 * Outbound HTTP for one part of the server: fetch (WHATWG, for SDKs that take a custom fetch) and undici's
 * request, both through one guarded Agent. A 3xx answer is an error, never followed.
 */
export class OutboundClient {
  private agent: Promise<Dispatcher> | undefined;

  constructor(readonly policy: OutboundPolicy) {}

  dispatcher(): Promise<Dispatcher> {
    this.agent ??= createGuardedAgent(this.policy);
    return this.agent;
  }

  /** fetch through the guard; `timeoutMs` bounds the whole exchange. */
  async fetch(
    input: string | URL | Request,
    init: RequestInit & GuardedRequestOptions = {},
  ): Promise<Response> {
    const { timeoutMs = OUTBOUND_TOTAL_TIMEOUT_MS, ...rest } = init;
    const url = assertHttpUrl(input instanceof Request ? input.url : input);
    const [undici, dispatcher] = await Promise.all([loadUndici(), this.dispatcher()]);
    const response = await undici.fetch(url, {
      ...(rest as Record<string, unknown>),
      redirect: 'manual',
      signal: withTimeout(rest.signal, timeoutMs),
      dispatcher,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      throw new OutboundRefusedError('redirect', `${url.origin} answered ${response.status}; not followed`);
    }
    return response as unknown as Response;
  }

  /** undici's request through the guard (Node streams: the AI token path). */
  async request(
    url: string,
    options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'> &
      GuardedRequestOptions & { signal?: AbortSignal },
  ): Promise<Dispatcher.ResponseData> {
    const { timeoutMs = OUTBOUND_TOTAL_TIMEOUT_MS, signal, ...rest } = options;
    assertHttpUrl(url);
    const [undici, dispatcher] = await Promise.all([loadUndici(), this.dispatcher()]);
    const response = await undici.request(url, {
      ...rest,
      signal: withTimeout(signal, timeoutMs),
      dispatcher,
    });
    if (response.statusCode >= 300 && response.statusCode < 400) {
      // Not read: its words are never passed on. Destroying it must not raise an unhandled 'error'.
      response.body.on('error', () => {}).destroy();
      throw new OutboundRefusedError(
        'redirect',
        `${new URL(url).origin} answered ${response.statusCode}; not followed`,
      );
    }
    return response;
  }

  async close(): Promise<void> {
    if (this.agent) await (await this.agent).close();
  }
}
