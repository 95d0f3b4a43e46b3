import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footnoteNumbersOf } from '../../shared/editor/footnotes';
import { FOOTNOTES_DOCUMENT } from '../../shared/export/fixture';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { exportDocument } from '../export';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { upload, visible } from './test-helpers';

const run = promisify(execFile);
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';
const work = mkdtempSync(path.join(os.tmpdir(), 'qw-footnotes-'));

/** Footnote ids are the file's own names after an import: compared by number, as a reader sees them. */
function byNumber(doc: RichTextDoc): unknown {
  const numbers = footnoteNumbersOf(doc);
  const walk = (nodes: RichTextNode[] | undefined): RichTextNode[] | undefined =>
    nodes?.map((node) => ({
      ...node,
      ...(node.type === 'footnoteReference' || node.type === 'footnote'
        ? { attrs: { id: `n${numbers.get(String(node.attrs?.id))}` } }
        : {}),
      ...(node.content ? { content: walk(node.content) } : {}),
    }));
  return visible({ type: 'doc', content: walk(doc.content)! });
}

const notes = (doc: RichTextDoc) =>
  (doc.content.at(-1)?.type === 'footnotes' ? doc.content.at(-1)!.content! : []).map((note) =>
    (note.content ?? []).map((p) => (p.content ?? []).map((t) => t.text ?? '').join('')).join(' / '),
  );

describe('footnotes through every export and import', () => {
  let server: TestServer;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await createUser(server);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function roundTrip(format: 'html' | 'md' | 'docx') {
    const file = await exportDocument('Round Trip', FOOTNOTES_DOCUMENT, format);
    const res = await upload(server, alice.token, file.fileName, file.body as string | Buffer);
    expect(res.status).toBe(201);
    expect(res.body.degraded).toEqual([]);
    return res.body.content as RichTextDoc;
  }

  it('HTML export writes numbered references and a list of notes with back-links, and imports back the same', async () => {
    const html = String((await exportDocument('Notes', FOOTNOTES_DOCUMENT, 'html')).body);
    expect(html).toMatch(
      /Whales sing<sup class="footnote-ref"><a (id="fnref1" href="#fn1"|href="#fn1" id="fnref1")>1<\/a><\/sup>/,
    );
    expect(html).toContain('<section class="footnotes" data-footnotes>');
    expect(html).toMatch(
      /<li id="fn2">[\s\S]*Griffin[\s\S]*<a class="footnote-backref"[^>]*href="#fnref2">↩<\/a>/,
    );
    expect(html).not.toMatch(/href="#fn[^"]*"[^>]*target=/);
    expect(byNumber(await roundTrip('html'))).toEqual(byNumber(FOOTNOTES_DOCUMENT));
  });

  it('Markdown export writes GFM footnotes and imports back the same', async () => {
    const md = String((await exportDocument('Notes', FOOTNOTES_DOCUMENT, 'md')).body);
    expect(md).toContain('Whales sing[^1] and bats see by ear[^2].');
    expect(md).toContain('[^1]: Payne and McVay, 1971.\n\n[^2]: Griffin, _Listening in the Dark_, 1958.');
    expect(byNumber(await roundTrip('md'))).toEqual(byNumber(FOOTNOTES_DOCUMENT));
  });

  it('Word export has real footnotes and imports back the same', async () => {
    const content = await roundTrip('docx');
    expect(byNumber(content)).toEqual(byNumber(FOOTNOTES_DOCUMENT));
  });

  it('plain text writes [1] in the text and the notes under "Notes"', async () => {
    const body = String((await exportDocument('T', FOOTNOTES_DOCUMENT, 'txt')).body);
    expect(body).toContain('Whales sing[1] and bats see by ear[2].');
    expect(body).toContain('Notes\n\n[1] Payne and McVay, 1971.\n[2] Griffin, Listening in the Dark, 1958.');
  });

  it('LibreOffice reads the Word file with two footnotes at the foot of the page', async () => {
    const file = await exportDocument('Notes', FOOTNOTES_DOCUMENT, 'docx');
    const docx = path.join(work, 'notes.docx');
    writeFileSync(docx, file.body as Buffer);
    const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
    await run(SOFFICE, [profile, '--headless', '--convert-to', 'fodt', '--outdir', work, docx], {
      timeout: 120_000,
    });
    const fodt = readFileSync(path.join(work, 'notes.fodt'), 'utf8');
    const footnotes = [...fodt.matchAll(/<text:note [^>]*text:note-class="footnote"[\s\S]*?<\/text:note>/g)];
    expect(footnotes).toHaveLength(2);
    expect(footnotes[0]![0]).toContain('Payne and McVay, 1971.');
    expect(footnotes[1]![0]).toContain('Listening in the Dark');
    expect(fodt).toMatch(/Whales sing<text:note /);
  }, 150_000);

  it('GFM footnotes from elsewhere: named labels, a note of two paragraphs, notes listed before their use', async () => {
    const md = [
      '[^later]: Defined first,',
      '    used second.',
      '',
      'One claim[^Source] and another[^later]. Not a note: [^missing].',
      '',
      '[^source]: The first note.',
      '',
      '    Its second paragraph.',
    ].join('\n');
    const res = await upload(server, alice.token, 'notes.md', md);
    expect(res.status).toBe(201);
    const content = res.body.content as RichTextDoc;
    expect(content.content.map((node) => node.type)).toEqual(['paragraph', 'footnotes']);
    expect(content.content[0]!.content!.filter((node) => node.type === 'footnoteReference')).toHaveLength(2);
    expect(JSON.stringify(content.content[0])).toContain('Not a note: [^missing].');
    expect(notes(content)).toEqual([
      'The first note. / Its second paragraph.',
      'Defined first, used second.',
    ]);
  });

  it('HTML from GitHub (user-content- anchors, a heading in the section, back-links inside the note)', async () => {
    const html = `<p>Text<sup><a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref>1</a></sup></p>
      <section data-footnotes class="footnotes"><h2 id="footnote-label" class="sr-only">Footnotes</h2>
      <ol><li id="user-content-fn-1"><p>The note <a href="#user-content-fnref-1" data-footnote-backref class="data-footnote-backref" aria-label="Back to reference 1">↩</a></p></li></ol></section>`;
    const res = await upload(server, alice.token, 'gh.html', html);
    expect(res.status).toBe(201);
    const content = res.body.content as RichTextDoc;
    expect(content.content.map((node) => node.type)).toEqual(['paragraph', 'footnotes']);
    expect(notes(content)).toEqual(['The note']);
  });
});
