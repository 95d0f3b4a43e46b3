/**
 * bench:compile — how long a 100,000-word book takes to compile, per format.
 *
 * The book: 12 chapters (one document with a level-1 heading per chapter), paragraphs of about 60 words with
 * italics, a scene break every 25 paragraphs and three images (400 × 300 PNG). Each format (EPUB, PDF as a
 * book on 6 × 9 in, Word as a manuscript) is assembled and rendered --runs times in this process (what the
 * compile worker does); the baseline, in the same run, is the existing single-document Word and HTML export of
 * the same text. Then one book goes through the worker itself while a timer on the main thread measures the
 * longest stall of its event loop.
 *
 * Usage: npm run bench:compile [-- --runs 3]
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { imageSrc } from '../src/shared/editor/image-src';
import { bookOptionsSchema, type BookFormat, type BookOptionsInput } from '../src/shared/schemas/compile';
import { exportDocument } from '../src/server/export';
import { compileInWorker } from '../src/server/compile/compile-pool';
import { renderBook, type CompileJob } from '../src/server/compile/render';
import { sampleBookDocument } from '../src/server/compile/sample-book';
import type { BookImage } from '../src/server/compile/assets';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);
const WORDS = 100_000;
const CHAPTERS = 12;

const sources = Array.from({ length: 3 }, () => imageSrc(randomUUID(), randomUUID()));
const content = sampleBookDocument(WORDS, CHAPTERS, [
  sources[0]!,
  '',
  '',
  '',
  sources[1]!,
  '',
  '',
  '',
  '',
  sources[2]!,
]);
const png = await sharp({
  create: { width: 400, height: 300, channels: 3, background: { r: 90, g: 120, b: 160 } },
})
  .png()
  .toBuffer();
const images: BookImage[] = sources.map((src) => ({
  src,
  name: `${src.split('/').at(-1)}.png`,
  mime: 'image/png',
  width: 400,
  height: 300,
  bytes: new Uint8Array(png),
}));

function job(format: BookFormat, options: BookOptionsInput): CompileJob {
  return {
    format,
    source: { kind: 'document', title: 'The Mill on the River', content },
    options: bookOptionsSchema.parse({ author: 'Ada Lovelace', chapterNumbering: 'words', ...options }),
    author: '',
    images: format === 'docx' ? [] : images,
    now: Date.now(),
  };
}

async function time(label: string, run: () => Promise<number>) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    bytes = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { label, best: times[0]!, median: times[Math.floor(times.length / 2)]!, bytes };
}

const rows = [
  await time('EPUB (book)', async () => (await renderBook(job('epub', {}))).length),
  await time('PDF (book, 6 × 9 in)', async () => (await renderBook(job('pdf', { trim: '6x9' }))).length),
  await time(
    'Word (manuscript)',
    async () => (await renderBook(job('docx', { style: 'manuscript' }))).length,
  ),
];
const baselineDocx = await time('baseline: single-document Word export', async () => {
  const file = await exportDocument('The Mill on the River', content, 'docx');
  return (file.body as Buffer).length;
});
const baselineHtml = await time('baseline: single-document HTML export', async () => {
  const file = await exportDocument('The Mill on the River', content, 'html');
  return Buffer.byteLength(file.body as string);
});

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const workerStarted = performance.now();
await compileInWorker(job('pdf', { trim: '6x9' }));
const workerMs = performance.now() - workerStarted;
loop.disable();

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
console.log(
  `bench:compile — ${WORDS.toLocaleString('en-US')} words, ${CHAPTERS} chapters, 3 images, ${RUNS} runs each`,
);
console.log(
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
for (const row of [...rows, baselineDocx, baselineHtml]) {
  console.log(
    `${row.label.padEnd(42)} best ${ms(row.best).padStart(9)}  median ${ms(row.median).padStart(9)}  ` +
      `${(row.bytes / 1024).toFixed(0)} KB  ×${(row.median / baselineDocx.median).toFixed(2)} of the Word export`,
  );
}
console.log(
  `PDF through the worker: ${ms(workerMs)}; longest main-thread stall meanwhile ${ms(loop.max / 1e6)} (p99 ${ms(loop.percentile(99) / 1e6)})`,
);
process.exit(0);
