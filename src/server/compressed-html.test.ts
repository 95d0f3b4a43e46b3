import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { encodeHtml } from './compressed-html';

const page = `<!doctype html><html><head><style>${'.a{color:red}'.repeat(2_000)}</style></head><body></body></html>`;

it('sends the page in the encoding the browser prefers, much smaller, and the same page once decoded', () => {
  const br = encodeHtml(page, 'gzip, deflate, br, zstd', { sameForEveryone: true });
  expect(br.encoding).toBe('br');
  expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(page);
  expect((br.body as Buffer).length).toBeLessThan(page.length / 10);

  const gzip = encodeHtml(page, 'gzip', { sameForEveryone: true });
  expect(gzip.encoding).toBe('gzip');
  expect(gunzipSync(gzip.body as Buffer).toString()).toBe(page);

  // A page made for one request is compressed too, in what the browser accepts.
  const shared = encodeHtml(`${page}<!-- one document -->`, 'br', { sameForEveryone: false });
  expect(shared.encoding).toBe('br');
  expect(brotliDecompressSync(shared.body as Buffer).toString()).toBe(`${page}<!-- one document -->`);
});

it('sends the page as it is to a client that accepts no compression', () => {
  expect(encodeHtml(page, undefined, { sameForEveryone: true })).toEqual({ body: page, encoding: null });
  expect(encodeHtml(page, 'identity', { sameForEveryone: true })).toEqual({ body: page, encoding: null });
  expect(encodeHtml(page, 'br;q=0, gzip;q=0', { sameForEveryone: true }).encoding).toBeNull();
});

it('keeps the three common pages compressed: switching between them compresses nothing again', () => {
  const landing = `${page}<!-- landing -->`;
  const editor = `${page}<!-- editor -->`;
  const first = encodeHtml(page, 'br', { sameForEveryone: true }).body;
  const firstLanding = encodeHtml(landing, 'br', { sameForEveryone: true }).body;
  const firstEditor = encodeHtml(editor, 'br', { sameForEveryone: true }).body;
  expect(encodeHtml(page, 'br', { sameForEveryone: true }).body).toBe(first);
  expect(encodeHtml(landing, 'br', { sameForEveryone: true }).body).toBe(firstLanding);
  expect(encodeHtml(editor, 'br', { sameForEveryone: true }).body).toBe(firstEditor);
  expect(brotliDecompressSync(firstLanding as Buffer).toString()).toBe(landing);
  expect(brotliDecompressSync(firstEditor as Buffer).toString()).toBe(editor);
});
