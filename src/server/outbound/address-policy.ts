import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may connect to on someone's behalf. Decided on the address a host name
 * resolved to, at connect time, so a name that resolves to a public address when saved and to an internal
 * one later (DNS rebinding) is still refused.
 *
 * - Link-local addresses and cloud metadata endpoints: always refused, whatever the allow list says.
 * - Multicast and broadcast: always refused (no HTTP server lives there).
 * - Public unicast: allowed.
 * - Everything else (loopback, private, unique-local, CGNAT, unspecified, reserved ranges): refused unless an
 *   allow-list entry matches it.
 */

/** Instance metadata services (AWS, GCP, Azure, Oracle, Alibaba, OpenStack, ECS task metadata, AWS DNS). */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.169.253',
  '168.63.129.16',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
  'fd00:ec2::23',
]);

export type AddressClass = 'public' | 'metadata' | 'link-local' | 'multicast' | 'loopback' | 'internal';

/** The class of one IP address; IPv4-mapped IPv6 and NAT64 (64:ff9b::/96) addresses count as their IPv4. */
export function classifyAddress(address: string): AddressClass {
  let parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6' && parsed.range() === 'rfc6052') {
    const bytes = parsed.toByteArray().slice(12);
    parsed = ipaddr.fromByteArray(bytes);
  }
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString()))
    return 'metadata';
  switch (parsed.range()) {
    case 'unicast':
      return 'public';
    case 'linkLocal':
      return 'link-local';
    case 'multicast':
    case 'broadcast':
      return 'multicast';
    case 'loopback':
      return 'loopback';
    default:
      return 'internal';
  }
}

/** One allow-list entry: an address, a range, or a host name, each on every port or on one. */
export type AllowEntry =
  | { kind: 'range'; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port: number | undefined }
  | { kind: 'host'; host: string; port: number | undefined };

export class AllowEntryError extends Error {}

function portOf(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65_535)
    throw new AllowEntryError(`"${entry}" has no valid port`);
  return port;
}

function addressRange(address: string, port: number | undefined): AllowEntry {
  const parsed = ipaddr.process(address);
  return { kind: 'range', range: [parsed, parsed.kind() === 'ipv4' ? 32 : 128], port };
}

/**
 * Parses one entry of OUTBOUND_ALLOWED_HOSTS: `127.0.0.1`, `127.0.0.1:11434`, `10.0.0.0/8`, `::1`,
 * `[::1]:11434`, `ollama.internal`, `ollama.internal:11434`, or a URL (`http://127.0.0.1:11434/v1`: its host
 * and port).
 */
export function parseAllowEntry(entry: string): AllowEntry {
  const text = entry.trim();
  if (/^https?:\/\//i.test(text)) {
    const url = new URL(text);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return ipaddr.isValid(host) ? addressRange(host, port) : { kind: 'host', host: host.toLowerCase(), port };
  }
  if (text.includes('/')) {
    try {
      const [address, bits] = ipaddr.parseCIDR(text);
      // A range given in IPv4-mapped form matches the IPv4 addresses it names.
      return { kind: 'range', range: [address, bits], port: undefined };
    } catch {
      throw new AllowEntryError(`"${entry}" is not an address range`);
    }
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    if (!ipaddr.IPv6.isValid(bracketed[1]!)) throw new AllowEntryError(`"${entry}" is not an IPv6 address`);
    return addressRange(bracketed[1]!, bracketed[2] ? portOf(bracketed[2], entry) : undefined);
  }
  if (ipaddr.isValid(text)) return addressRange(text, undefined);
  const [host, port, extra] = text.split(':');
  if (!host || extra !== undefined || !/^[a-z0-9.-]+$/i.test(host))
    throw new AllowEntryError(`"${entry}" is not a host, address or range`);
  if (ipaddr.IPv4.isValidFourPartDecimal(host))
    return addressRange(host, port ? portOf(port, entry) : undefined);
  return { kind: 'host', host: host.toLowerCase(), port: port ? portOf(port, entry) : undefined };
}

/** A comma-separated list of entries (OUTBOUND_ALLOWED_HOSTS). */
export function parseAllowList(value: string | undefined): AllowEntry[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(parseAllowEntry);
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, order: 'verbatim' });

export interface OutboundPolicy {
  /** Entries that open internal addresses (loopback, private…) to outbound requests. */
  readonly allowed: readonly AllowEntry[];
  /** Host name → addresses; the system resolver unless a test supplies its own. */
  readonly resolve: Resolver;
}

export function outboundPolicy(
  allowed: readonly AllowEntry[] = [],
  resolve: Resolver = systemResolver,
): OutboundPolicy {
  return { allowed, resolve };
}

function entryMatches(entry: AllowEntry, hostname: string, address: string, port: number): boolean {
  if (entry.port !== undefined && entry.port !== port) return false;
  if (entry.kind === 'host') return entry.host === hostname.toLowerCase();
  const parsed = ipaddr.process(address);
  const [range, bits] = entry.range;
  const rangeAddress =
    range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress()
      ? (range as ipaddr.IPv6).toIPv4Address()
      : range;
  const rangeBits = rangeAddress !== range ? bits - 96 : bits;
  return parsed.kind() === rangeAddress.kind() && parsed.match(rangeAddress, rangeBits);
}

/**
 * Why connecting to `address` (what `hostname` resolved to) on `port` is refused, or undefined when it is
 * allowed.
 */
export function refusalOf(
  policy: OutboundPolicy,
  hostname: string,
  address: string,
  port: number,
): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const kind = classifyAddress(address);
  if (kind === 'public') return undefined;
  if (kind === 'metadata' || kind === 'link-local' || kind === 'multicast')
    return `${hostname} (${address}) is a ${kind} address, never allowed`;
  if (policy.allowed.some((entry) => entryMatches(entry, hostname, address, port))) return undefined;
  return `${hostname} (${address}) port ${port} is a ${kind} address not in OUTBOUND_ALLOWED_HOSTS`;
}
