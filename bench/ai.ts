/**
 * bench:ai — what Quillwright adds on top of the AI provider, and how fast offline grammar is.
 *
 * Three processes: this one (the client that measures), a fake OpenAI-compatible provider with a fixed token
 * schedule (src/server/test/fake-openai.ts), and the real Quillwright server (in-memory PGlite) pointed at it.
 * 1. Streams: time to first token (TTFT) and total time of POST /api/ai/improve with
 *    `Accept: text/event-stream`, against the same request straight to the fake provider. REQUESTS requests
 *    at CONCURRENCY concurrent streams each; p50/p99 and the added latency. ROUNDS rounds, the two paths
 *    alternating (the order flips each round), so a noisy moment hits both; best and median across rounds.
 * 2. Load: BURST concurrent streams through Quillwright at once; every one must complete without error.
 * 3. Offline grammar: checkGrammar() of a 2,000-word text after warm-up, RUNS times (best and median).
 *
 * Usage: npm run bench:ai [-- --requests 200 --concurrency 20 --burst 100 --rounds 5]
 * Targets: ≤ 5 ms added p50 TTFT, no errors at 100 concurrent streams, grammar ≤ 250 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import os from 'node:os';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    role: { type: 'string', default: 'client' },
    provider: { type: 'string' },
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '20' },
    burst: { type: 'string', default: '100' },
    runs: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
  },
});

/** Fixed token schedule of the fake provider: first token after 20 ms, then 20 tokens 5 ms apart. */
const SCHEDULE = {
  tokens: Array.from({ length: 20 }, (_, i) => `tok${i} `),
  firstTokenDelayMs: 20,
  tokenDelayMs: 5,
  inputTokens: 50,
  outputTokens: 20,
};
const TEXT = 'Our team have finished the report and we think its good, but it could be clearer.';

// ---------------------------------------------------------------------------------------------- child roles

async function runFake(): Promise<void> {
  const { startFakeOpenAI } = await import('../src/server/test/fake-openai');
  const fake = await startFakeOpenAI(SCHEDULE);
  console.log(JSON.stringify({ baseUrl: fake.baseUrl }));
}

async function runServer(providerUrl: string): Promise<void> {
  const { startTestServer } = await import('../src/server/test/server');
  const { createUser } = await import('../src/server/test/factories');
  const server = await startTestServer({
    env: { OPENAI_BASE_URL: providerUrl, OPENAI_API_KEY: 'bench', OPENAI_MODEL: 'bench-model' },
  });
  const user = await createUser(server);
  // A normal exit on SIGTERM lets --cpu-prof write its profile.
  process.once('SIGTERM', () => process.exit(0));
  // SIGUSR2 prints the CPU time used so far (the client reads it before and after a phase).
  process.on('SIGUSR2', () => {
    const { user, system } = process.cpuUsage();
    console.log(JSON.stringify({ cpuMs: (user + system) / 1000 }));
  });
  console.log(JSON.stringify({ url: server.url, token: user.token }));
}

// ---------------------------------------------------------------------------------------------- client

/** CPU milliseconds the server process has used so far (asked through SIGUSR2). */
function serverCpuMs(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve((JSON.parse(line) as { cpuMs: number }).cpuMs);
    });
    child.kill('SIGUSR2');
  });
}

function startChild(role: string, extra: string[] = []): Promise<{ child: ChildProcess; info: any }> {
  // BENCH_CPU_PROF=dir writes a CPU profile of the Quillwright server process (for finding hot spots).
  const profile =
    role === 'server' && process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', 'bench/ai.ts', '--role', role, ...extra],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, info: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

interface Sample {
  ttft: number;
  total: number;
  ok: boolean;
}

/** Reads an SSE response; the first token is the first event carrying text. */
async function timeStream(
  url: string,
  init: RequestInit,
  isToken: (data: string) => boolean,
): Promise<Sample> {
  const start = performance.now();
  let ttft = NaN;
  try {
    const response = await fetch(url, init);
    if (!response.ok || !response.body) {
      await response.text().catch(() => '');
      return { ttft, total: performance.now() - start, ok: false };
    }
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (Number.isNaN(ttft) && isToken(frame)) ttft = performance.now() - start;
      }
    }
    return { ttft, total: performance.now() - start, ok: !Number.isNaN(ttft) };
  } catch {
    return { ttft, total: performance.now() - start, ok: false };
  }
}

async function pool(count: number, concurrency: number, task: () => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        samples.push(await task());
      }
    }),
  );
  return samples;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const TARGET_ADDED_TTFT_MS = 5;

type Summary = ReturnType<typeof summarize>;

function summarize(samples: Sample[]) {
  const ok = samples.filter((s) => s.ok);
  return {
    errors: samples.length - ok.length,
    ttftP50: percentile(
      ok.map((s) => s.ttft),
      50,
    ),
    ttftP99: percentile(
      ok.map((s) => s.ttft),
      99,
    ),
    totalP50: percentile(
      ok.map((s) => s.total),
      50,
    ),
    totalP99: percentile(
      ok.map((s) => s.total),
      99,
    ),
  };
}

async function runClient(): Promise<void> {
  const requests = Number(args.requests);
  const concurrency = Number(args.concurrency);
  const burst = Number(args.burst);
  const runs = Number(args.runs);
  const children: ChildProcess[] = [];
  try {
    const fake = await startChild('fake');
    children.push(fake.child);
    const qw = await startChild('server', ['--provider', fake.info.baseUrl]);
    children.push(qw.child);

    const direct = () =>
      timeStream(
        `${fake.info.baseUrl}/chat/completions`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
          body: JSON.stringify({
            model: 'bench-model',
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: 'user', content: TEXT }],
          }),
        },
        (frame) => frame.includes('"content":"tok'),
      );
    const through = () =>
      timeStream(
        `${qw.info.url}/api/ai/improve`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            authorization: `Bearer ${qw.info.token}`,
          },
          body: JSON.stringify({ text: TEXT }),
        },
        (frame) => frame.startsWith('data: {"delta"'),
      );

    // Warm-up: connections, JIT, the first database queries.
    await pool(40, 10, direct);
    await pool(40, 10, through);

    const rounds: { baseline: Summary; quill: Summary; cpuPerStream: number }[] = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      const measureThrough = async () => {
        const cpuBefore = await serverCpuMs(qw.child);
        const summary = summarize(await pool(requests, concurrency, through));
        return { summary, cpuPerStream: ((await serverCpuMs(qw.child)) - cpuBefore) / requests };
      };
      let baseline: Summary;
      let measured: { summary: Summary; cpuPerStream: number };
      if (round % 2 === 0) {
        baseline = summarize(await pool(requests, concurrency, direct));
        measured = await measureThrough();
      } else {
        measured = await measureThrough();
        baseline = summarize(await pool(requests, concurrency, direct));
      }
      rounds.push({ baseline, quill: measured.summary, cpuPerStream: measured.cpuPerStream });
    }
    const burstSamples = await pool(burst, burst, through);
    const burstSummary = summarize(burstSamples);

    const { checkGrammar, warmUpGrammar, stopGrammar } = await import('../src/server/ai/grammar');
    await warmUpGrammar();
    const sentence = [
      'Writers often draft quickly and revise later, which is a sensible habit for most projects.',
      'Their are times when a second pair of eyes catches what the first one missed.',
      'The editor highlights mistakes as you type so that nothing slips through to the final version.',
      'A good paragraph has one idea, a clear opening sentence and evidence that supports it.',
    ].join(' ');
    const words = sentence.split(/\s+/);
    const text = Array.from({ length: 2000 }, (_, i) => words[i % words.length]).join(' ');
    await checkGrammar(text);
    const grammarTimes: number[] = [];
    let changes = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      changes = (await checkGrammar(text)).changes.length;
      grammarTimes.push(performance.now() - t0);
    }
    await stopGrammar();

    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    console.log(
      `\nbench:ai — ${date} UTC, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
    console.log(
      `fake provider: first token after ${SCHEDULE.firstTokenDelayMs} ms, ${SCHEDULE.tokens.length} tokens ${SCHEDULE.tokenDelayMs} ms apart`,
    );
    console.log(`\n${requests} streams at ${concurrency} concurrent, ${rounds.length} rounds alternating`);
    console.log(
      '| round | straight TTFT p50 / p99 | through TTFT p50 / p99 | added TTFT p50 / p99 | added total p50 | server CPU per stream | errors |',
    );
    console.log('|---|---|---|---|---|---|---|');
    rounds.forEach(({ baseline, quill, cpuPerStream }, i) => {
      console.log(
        `| ${i + 1} | ${ms(baseline.ttftP50)} / ${ms(baseline.ttftP99)} | ${ms(quill.ttftP50)} / ${ms(quill.ttftP99)} | ${ms(quill.ttftP50 - baseline.ttftP50)} / ${ms(quill.ttftP99 - baseline.ttftP99)} | ${ms(quill.totalP50 - baseline.totalP50)} | ${ms(cpuPerStream)} | ${baseline.errors + quill.errors} |`,
      );
    });
    const added = rounds.map((r) => r.quill.ttftP50 - r.baseline.ttftP50);
    const addedMedian = percentile(added, 50);
    console.log(
      `added TTFT p50: best ${ms(Math.min(...added))}, median ${ms(addedMedian)} (target ≤ ${ms(TARGET_ADDED_TTFT_MS)}: ${addedMedian <= TARGET_ADDED_TTFT_MS ? 'met' : 'NOT MET'})`,
    );
    console.log(
      `\n${burst} concurrent streams through Quillwright: ${burst - burstSummary.errors} completed, ${burstSummary.errors} errors, TTFT p50 ${ms(burstSummary.ttftP50)}, p99 ${ms(burstSummary.ttftP99)}`,
    );
    const sortedGrammar = [...grammarTimes].sort((a, b) => a - b);
    console.log(
      `\noffline grammar, 2,000 words (${changes} changes), ${runs} runs after warm-up: best ${ms(sortedGrammar[0]!)}, median ${ms(percentile(grammarTimes, 50))}`,
    );
    const failed = burstSummary.errors > 0 || rounds.some((r) => r.baseline.errors > 0 || r.quill.errors > 0);
    process.exitCode = failed ? 1 : 0;
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

if (args.role === 'fake') await runFake();
else if (args.role === 'server') await runServer(args.provider!);
else await runClient();
