/**
 * bench:ai, ghost-text part — inline completion in the full editor screen, in Chromium.
 *
 * 1. Builds the real client (the project's Vite config) into a temporary directory; nothing is written to dist/.
 * 2. Starts a fake OpenAI-compatible provider on loopback with a fixed schedule (first token after
 *    FIRST_TOKEN_MS) and the real server in-process (in-memory database) pointed at it; signs a user up with
 *    the default "Inline completion" preference (normal: GHOST_COMPLETION_DELAY_MS.normal after the last key).
 * 3. Pause → ghost: TRIALS times (after WARMUP discarded ones), types a sentence into a new paragraph at
 *    KEY_DELAY_MS per key, stops, and times in the page from the last keydown (event.timeStamp) to the frame
 *    that paints the first ghost character (MutationObserver, then rAF → MessageChannel task). Between trials,
 *    the provider's own time to first token is measured straight from this process (alternating, so a noisy
 *    moment hits both). Added = pause → ghost − the preference's delay − the provider's first token (median).
 * 4. Requests per 100 typed words: types a WORDS-word passage as a writer does (KEY_DELAY_MS per key, a
 *    SENTENCE_PAUSE_MS pause after each sentence) and counts the completions the provider was asked for.
 * 5. Adds the report to docs/performance-history.md, at the top of "## AI (bench:ai)".
 *
 * Usage: npm run bench:ai (runs bench/ai.ts, then this) or tsx bench/ghost.ts [-- --trials 20 --words 100 --no-write]
 * Targets: ≤ 30 ms added at p50 over the provider's first token; ≤ 10 requests per 100 typed words.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { GHOST_COMPLETION_DELAY_MS } from '../src/shared/constants';
import { startFakeOpenAI } from '../src/server/test/fake-openai';
import { startTestServer } from '../src/server/test/server';
import {
  buildClient,
  createBenchDocument,
  launchChromium,
  serveStatic,
  signedInContext,
  summarize,
  writePerformanceSection,
} from './browser-bench';

const { values: args } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    words: { type: 'string', default: '100' },
    'no-write': { type: 'boolean', default: false },
  },
});
const TRIALS = Number(args.trials);
const WARMUP = Number(args.warmup);
const WORDS = Number(args.words);
const FIRST_TOKEN_MS = 20;
const KEY_DELAY_MS = 60;
const SENTENCE_PAUSE_MS = 1_500;
const DELAY_MS = GHOST_COMPLETION_DELAY_MS.normal;
const TARGET_ADDED_MS = 30;
const TARGET_REQUESTS_PER_100_WORDS = 10;
const HEADING = '## Ghost-text completion (bench:ai)';
const TRIAL_SENTENCE = 'The harbour lights came on one by one';
const PASSAGE = [
  'Writers keep whole books in one document and expect the editor to keep up.',
  'A pause is where the assistant may offer the next few words in grey.',
  'Most pauses are short, so the request must wait until the writer really stops.',
  'Nothing reaches the shared text until the writer presses Tab to keep it.',
  'Collaborators never see the grey text, and typing simply goes on over it.',
];

/** In the page: when the first ghost character appears, and when the frame showing it has been painted. */
function installProbe() {
  const probe = { lastKey: 0, seen: 0, painted: 0 };
  (window as unknown as { ghostProbe: typeof probe }).ghostProbe = probe;
  document.addEventListener('keydown', (event) => (probe.lastKey = event.timeStamp), true);
  new MutationObserver(() => {
    if (probe.seen) return;
    const ghost = document.querySelector('[data-testid="ghost-text"]');
    if (!ghost?.textContent?.trim()) return;
    probe.seen = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (probe.painted = performance.now());
      channel.port2.postMessage(null);
    });
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

async function resetProbe(page: Page) {
  await page.evaluate(() => {
    const probe = (window as unknown as { ghostProbe: { seen: number; painted: number } }).ghostProbe;
    probe.seen = 0;
    probe.painted = 0;
  });
}

/** The provider's own time to first token, asked straight from here (the baseline). */
async function providerFirstToken(baseUrl: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
    body: JSON.stringify({
      model: 'bench-model',
      stream: true,
      messages: [{ role: 'user', content: TRIAL_SENTENCE }],
    }),
  });
  let first = Number.NaN;
  for await (const chunk of response.body!) {
    // The first frame names the role with empty content; the first token is the first non-empty content.
    if (Number.isNaN(first) && /"content":"[^"]/.test(new TextDecoder().decode(chunk as Uint8Array))) {
      first = performance.now() - start;
    }
  }
  return first;
}

async function main() {
  const dir = await buildClient('ghost');
  const provider = await startFakeOpenAI({
    tokens: [' and', ' the', ' boats', ' turned', ' home.'],
    firstTokenDelayMs: FIRST_TOKEN_MS,
    tokenDelayMs: 5,
  });
  const server = await startTestServer({
    env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: provider.baseUrl, OPENAI_MODEL: 'bench-model' },
  });
  const browser = await launchChromium();
  try {
    const { session, documentId } = await createBenchDocument(server, 'Ghost bench', {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Notes from the harbour.' }] }],
    });
    // The bench measures completion alone; live grammar has its own (bench:grammar).
    const context = await signedInContext(browser, session, { liveGrammar: false });
    await context.addInitScript(installProbe);
    await serveStatic(context, dir);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto(`${server.url}/editor/${documentId}`);
    await page.getByTestId('connection-badge').getByText('Live').waitFor({ timeout: 60_000 });
    const editor = page.locator('.ProseMirror[contenteditable="true"]');
    await editor.click();
    await page.keyboard.press('Control+End');

    // Pause → ghost.
    console.log(`Pause → ghost: ${TRIALS} trials (+${WARMUP} warm-up)…`);
    const pauseToGhost: number[] = [];
    const pauseToSeen: number[] = [];
    const baseline: number[] = [];
    for (let trial = 0; trial < WARMUP + TRIALS; trial++) {
      await page.keyboard.press('Enter');
      await resetProbe(page);
      await page.keyboard.type(TRIAL_SENTENCE, { delay: KEY_DELAY_MS });
      await page
        .waitForFunction(
          () => (window as unknown as { ghostProbe: { painted: number } }).ghostProbe.painted > 0,
          undefined,
          { timeout: 15_000 },
        )
        .catch(async (error: unknown) => {
          await page.screenshot({ path: path.join(os.tmpdir(), 'qw-bench-ghost-failure.png') });
          console.error(`no ghost; provider asked ${provider.requests.length} times`);
          throw error;
        });
      const probe = await page.evaluate(
        () =>
          (window as unknown as { ghostProbe: { lastKey: number; seen: number; painted: number } })
            .ghostProbe,
      );
      // Escape dismisses the ghost; the paragraph stays as typed.
      await page.keyboard.press('Escape');
      if (trial < WARMUP) continue;
      pauseToGhost.push(probe.painted - probe.lastKey);
      pauseToSeen.push(probe.seen - probe.lastKey);
      baseline.push(await providerFirstToken(provider.baseUrl));
    }

    // Requests per 100 typed words.
    console.log(`Typing ${WORDS} words with a pause after each sentence…`);
    await page.keyboard.press('Enter');
    const before = provider.requests.filter((r) => r.method === 'POST').length;
    let typed = 0;
    let sentence = 0;
    while (typed < WORDS) {
      const words = PASSAGE[sentence % PASSAGE.length]!.split(' ').slice(0, WORDS - typed);
      await page.keyboard.type(`${words.join(' ')} `, { delay: KEY_DELAY_MS });
      typed += words.length;
      sentence += 1;
      await page.waitForTimeout(SENTENCE_PAUSE_MS);
    }
    const requests = provider.requests.filter((r) => r.method === 'POST').length - before;
    await context.close();

    const painted = summarize(pauseToGhost);
    const seen = summarize(pauseToSeen);
    const provided = summarize(baseline);
    const added = summarize(pauseToGhost.map((ms, i) => ms - DELAY_MS - (baseline[i] ?? Number.NaN)));
    const perHundred = (requests / typed) * 100;
    const fmt = (n: number) => n.toFixed(1);
    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const lines = [
      HEADING,
      '',
      `Measured ${date} UTC on ${os.cpus().length} cores (load average ${os.loadavg()[0]?.toFixed(1)}), ` +
        `\`npm run bench:ai\` (bench/ghost.ts). Full editor screen in Chromium, real server, fake provider on ` +
        `loopback whose first token comes after ${FIRST_TOKEN_MS} ms; preference "normal" (${DELAY_MS} ms pause).`,
      '',
      '| Last keystroke → … | Trials | Best (ms) | Median (ms) | p95 (ms) |',
      '|---|---|---|---|---|',
      `| first ghost character in the DOM | ${seen.n} | ${fmt(seen.best)} | ${fmt(seen.median)} | ${fmt(seen.p95)} |`,
      `| first ghost character painted | ${painted.n} | ${fmt(painted.best)} | ${fmt(painted.median)} | ${fmt(painted.p95)} |`,
      `| provider's own first token (baseline, alternating) | ${provided.n} | ${fmt(provided.best)} | ${fmt(provided.median)} | ${fmt(provided.p95)} |`,
      `| **added** (painted − ${DELAY_MS} ms pause − provider's first token) | ${added.n} | ${fmt(added.best)} | ${fmt(added.median)} | ${fmt(added.p95)} |`,
      '',
      `Added at p50: **${fmt(added.median)} ms** (target ≤ ${TARGET_ADDED_MS} ms: ${added.median <= TARGET_ADDED_MS ? 'met' : 'NOT MET'}).`,
      '',
      `Typing ${typed} words (${KEY_DELAY_MS} ms per key, ${SENTENCE_PAUSE_MS} ms after each of ${sentence} sentences): ` +
        `${requests} completion requests, **${fmt(perHundred)} per 100 words** (target ≤ ${TARGET_REQUESTS_PER_100_WORDS}: ` +
        `${perHundred <= TARGET_REQUESTS_PER_100_WORDS ? 'met' : 'NOT MET'}). Pauses inside a sentence are shorter than ` +
        'the delay, so only the pause after a sentence asks; the ghost needs the caret at the end of a paragraph.',
    ];
    console.log(`\n${lines.join('\n')}`);
    if (!args['no-write']) await writePerformanceSection(HEADING, lines.join('\n'));
  } finally {
    await browser.close();
    await server.close();
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
