import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { encodeHtml, pagesCompressed } from './compressed-html';

const page = `<!doctype html><html><head><style>${'.a{color:red}'.repeat(2_000)}</style></head><body></body></html>`;

it('sends the page in the encoding the browser prefers, much smaller, and the same page once decoded', async () => {
  const br = await encodeHtml(page, 'gzip, deflate, br, zstd', { sameForEveryone: true });
  expect(br.encoding).toBe('br');
  expect(brotliDecompressSync(br.body as Buffer).toString()).toBe(page);
  expect((br.body as Buffer).length).toBeLessThan(page.length / 10);

  const gzip = await encodeHtml(page, 'gzip', { sameForEveryone: true });
  expect(gzip.encoding).toBe('gzip');
  expect(gunzipSync(gzip.body as Buffer).toString()).toBe(page);

  // A page made for one request is compressed too, in what the browser accepts.
  const shared = await encodeHtml(`${page}<!-- one document -->`, 'br', { sameForEveryone: false });
  expect(shared.encoding).toBe('br');
  expect(brotliDecompressSync(shared.body as Buffer).toString()).toBe(`${page}<!-- one document -->`);
});

it('sends the page as it is to a client that accepts no compression', async () => {
  expect(await encodeHtml(page, undefined, { sameForEveryone: true })).toEqual({
    body: page,
    encoding: null,
  });
  expect(await encodeHtml(page, 'identity', { sameForEveryone: true })).toEqual({
    body: page,
    encoding: null,
  });
  expect((await encodeHtml(page, 'br;q=0, gzip;q=0', { sameForEveryone: true })).encoding).toBeNull();
});

it('answers the first request at once, and keeps the common pages thoroughly compressed for the next ones', async () => {
  // A page that thorough compression makes clearly smaller than quick compression.
  const words = Array.from({ length: 12_000 }, (_, i) => `w${(i * 7919) % 5003}`).join(' ');
  const landing = `${page}<p>${words}</p><!-- landing -->`;
  const editor = `${page}<p>${words}</p><!-- editor -->`;
  const firstLanding = (await encodeHtml(landing, 'br', { sameForEveryone: true })).body as Buffer;
  const firstEditor = (await encodeHtml(editor, 'gzip', { sameForEveryone: true })).body as Buffer;
  expect(brotliDecompressSync(firstLanding).toString()).toBe(landing);
  expect(gunzipSync(firstEditor).toString()).toBe(editor);

  await pagesCompressed();
  const keptLanding = (await encodeHtml(landing, 'br', { sameForEveryone: true })).body as Buffer;
  const keptEditor = (await encodeHtml(editor, 'gzip', { sameForEveryone: true })).body as Buffer;
  expect(keptLanding.length).toBeLessThan(firstLanding.length);
  expect(brotliDecompressSync(keptLanding).toString()).toBe(landing);
  expect(gunzipSync(keptEditor).toString()).toBe(editor);
  // Kept: the same bytes again, nothing compressed anew.
  expect((await encodeHtml(landing, 'br', { sameForEveryone: true })).body).toBe(keptLanding);
  expect((await encodeHtml(editor, 'gzip', { sameForEveryone: true })).body).toBe(keptEditor);
});
