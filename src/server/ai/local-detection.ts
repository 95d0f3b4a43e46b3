import type { DetectedLocalServer } from '../../shared/schemas/admin-ai';
import type { OutboundClient } from '../outbound';

/**
 * Finds OpenAI-compatible servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM) by asking
 * each usual loopback address for its model list. Only loopback addresses are ever probed, each with a
 * short timeout, so detection never reaches another host and never holds a request up for long.
 */
export interface LocalCandidate {
  name: string;
  /** OpenAI-compatible base URL (ending in /v1). */
  baseUrl: string;
}

const DEFAULT_LOCAL_CANDIDATES: LocalCandidate[] = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
  { name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1' },
  { name: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1' },
];

const DETECT_TIMEOUT_MS = 800;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function isLoopbackUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK_HOSTS.has(parsed.hostname)
    );
  } catch {
    return false;
  }
}

async function probe(
  candidate: LocalCandidate,
  outbound: OutboundClient,
  timeoutMs: number,
): Promise<DetectedLocalServer | undefined> {
  const base = candidate.baseUrl.replace(/\/+$/, '');
  try {
    const response = await outbound.fetch(`${base}/models`, { timeoutMs });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const body = (await response.json()) as { data?: { id?: unknown }[] };
    const models = (body.data ?? [])
      .map((m) => m.id)
      .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200)
      .slice(0, 50);
    return { name: candidate.name, base_url: base, models };
  } catch {
    return undefined;
  }
}

/**
 * Probes every loopback candidate at once, through the outbound guard (whose policy allows the candidates'
 * addresses); non-loopback entries are ignored, never contacted.
 */
export async function detectLocalServers(
  candidates: LocalCandidate[],
  outbound: OutboundClient,
  timeoutMs = DETECT_TIMEOUT_MS,
): Promise<DetectedLocalServer[]> {
  const found = await Promise.all(
    candidates.filter((c) => isLoopbackUrl(c.baseUrl)).map((c) => probe(c, outbound, timeoutMs)),
  );
  return found.filter((f): f is DetectedLocalServer => f !== undefined);
}

const NAMES_BY_PORT: Record<string, string> = {
  '11434': 'Ollama',
  '1234': 'LM Studio',
  '8080': 'llama.cpp',
  '8000': 'vLLM',
};

/** AI_LOCAL_SERVERS: unset → the usual addresses; "off" → none; else its loopback URLs (others dropped). */
export function localCandidatesFrom(value: string | undefined): LocalCandidate[] {
  if (value === undefined) return DEFAULT_LOCAL_CANDIDATES;
  if (value.trim().toLowerCase() === 'off') return [];
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => isLoopbackUrl(v))
    .map((baseUrl) => ({ name: NAMES_BY_PORT[new URL(baseUrl).port] ?? 'Local server', baseUrl }));
}
