import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EDITOR_HTML_FILE, LANDING_HTML_FILE } from '../shared/first-paint';
import { documents } from './db/schema';
import { renderIndexHtml } from './spa';
import { createUser } from './test/factories';
import { startTestServer, type TestServer } from './test/server';

let server: TestServer;
let clientDir: string;
let userId: string;

beforeAll(async () => {
  server = await startTestServer();
  userId = (await createUser(server)).id;
  clientDir = mkdtempSync(path.join(tmpdir(), 'qw-spa-'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    '<html><head><meta name="description" content="generic" /><title>Quillwright</title></head><body></body></html>',
  );
});
afterAll(() => server?.close());

async function insert(values: Partial<typeof documents.$inferInsert>) {
  const [row] = await server.database.db
    .insert(documents)
    .values({
      userId,
      title: 'Notes <script>',
      content: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Opening words "here"' }] }],
      },
      ...values,
    })
    .returning({ id: documents.id });
  return row!.id;
}

it('a public shared link is described by its escaped title and opening words', async () => {
  const id = await insert({ isPublic: true });
  const html = await renderIndexHtml(clientDir, `/shared/${id}`, server.database);
  expect(html).toContain('<title>Notes &lt;script&gt; — Quillwright</title>');
  expect(html).toContain('content="Opening words &quot;here&quot;"');
  expect(html).not.toContain('noindex');
});

it("a title with replacement patterns ($&, $`, $') is inserted literally, not expanded", async () => {
  const id = await insert({ isPublic: true, title: "Price $& then $` and $' end" });
  const html = await renderIndexHtml(clientDir, `/shared/${id}`, server.database);
  expect(html).toContain('<title>Price $&amp; then $` and $&#39; end — Quillwright</title>');
  expect(html).toContain(
    '<meta property="og:title" content="Price $&amp; then $` and $&#39; end — Quillwright" />',
  );
  // index.html appears exactly once: nothing of it was copied into the head.
  expect(html.match(/<html>/g)).toHaveLength(1);
  expect(html.match(/<body>/g)).toHaveLength(1);
});

it('a private, password-protected or trashed document’s link is not indexed and reveals neither title nor text', async () => {
  for (const id of [
    await insert({ isPublic: false }),
    await insert({ isPublic: true, sharePasswordHash: 'x' }),
    await insert({ isPublic: true, trashedAt: new Date() }),
  ]) {
    const html = await renderIndexHtml(clientDir, `/shared/${id}`, server.database);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(html).not.toContain('Notes');
    expect(html).not.toContain('Opening words');
  }
});

it('after the link is reset, only the new address is described; the old one reveals nothing', async () => {
  const id = await insert({ isPublic: true, shareLinkKey: 'new-key' });
  for (const query of [{}, { key: 'old-key' }]) {
    const html = await renderIndexHtml(clientDir, `/shared/${id}`, server.database, query);
    expect(html).toContain('noindex');
    expect(html).not.toContain('Opening words');
  }
  const html = await renderIndexHtml(clientDir, `/shared/${id}`, server.database, { key: 'new-key' });
  expect(html).toContain('content="Opening words &quot;here&quot;"');
});

it('other routes get index.html unchanged', async () => {
  expect(await renderIndexHtml(clientDir, '/privacy', server.database)).toContain(
    '<title>Quillwright</title>',
  );
});

it('`/` gets the page with the landing markup in it when the build has one, and index.html when not', async () => {
  expect(await renderIndexHtml(clientDir, '/', server.database)).toContain('<title>Quillwright</title>');
  const withLanding = mkdtempSync(path.join(tmpdir(), 'qw-spa-landing-'));
  writeFileSync(path.join(withLanding, 'index.html'), '<html><body><div id="root"></div></body></html>');
  writeFileSync(
    path.join(withLanding, LANDING_HTML_FILE),
    '<html><body><div id="root"><h1>The modern writer’s workshop</h1></div></body></html>',
  );
  expect(await renderIndexHtml(withLanding, '/', server.database)).toContain('<h1>');
  // Only `/`: every other route (and `/` with a path after it) is the app's empty page.
  expect(await renderIndexHtml(withLanding, '/privacy', server.database)).not.toContain('<h1>');
  expect(await renderIndexHtml(withLanding, '/editor/', server.database)).not.toContain('<h1>');
});

it('the editor’s routes get the page that preloads the editor’s code when the build has one', async () => {
  const withEditor = mkdtempSync(path.join(tmpdir(), 'qw-spa-editor-'));
  writeFileSync(path.join(withEditor, 'index.html'), '<html><head></head><body></body></html>');
  expect(await renderIndexHtml(withEditor, '/editor/abc', server.database)).not.toContain('EditorPage');
  writeFileSync(
    path.join(withEditor, EDITOR_HTML_FILE),
    '<html><head><link rel="modulepreload" href="/assets/EditorPage.js"></head><body></body></html>',
  );
  for (const route of ['/editor', '/editor/', '/editor/abc', '/editor/abc/']) {
    expect(await renderIndexHtml(withEditor, route, server.database)).toContain('EditorPage');
  }
  for (const route of ['/editors', '/editor/abc/history', '/privacy', '/shared/abc']) {
    expect(await renderIndexHtml(withEditor, route, server.database)).not.toContain('EditorPage');
  }
});
