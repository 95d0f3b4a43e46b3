import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GFM_TABLE_DOCUMENT, TABLES_AND_TASKS_DOCUMENT } from '../../shared/export/fixture';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { exportDocument } from '../export';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { upload, visible } from './test-helpers';

const run = promisify(execFile);
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';
const work = mkdtempSync(path.join(os.tmpdir(), 'qw-tables-'));

/** The fixture with each table cell's column widths removed (Word import does not read them back). */
function withoutColumnWidths(doc: RichTextDoc): RichTextDoc {
  const walk = (nodes: RichTextNode[] | undefined): RichTextNode[] | undefined =>
    nodes?.map((node) => {
      const { colwidth: _dropped, ...attrs } = node.attrs ?? {};
      return {
        ...node,
        ...(node.attrs ? { attrs } : {}),
        ...(node.content ? { content: walk(node.content) } : {}),
      };
    });
  return { type: 'doc', content: walk(doc.content)! };
}

const texts = (node: RichTextNode | undefined): string =>
  node?.text ?? (node?.content ?? []).map(texts).join('');

describe('tables, task lists, highlight and sub/superscript through every export and import', () => {
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

  async function roundTrip(doc: RichTextDoc, format: 'html' | 'md' | 'docx') {
    const file = await exportDocument('Round Trip', doc, format);
    const res = await upload(server, alice.token, file.fileName, file.body as string | Buffer);
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Round Trip');
    expect(res.body.degraded).toEqual([]);
    return res.body.content as RichTextDoc;
  }

  it('HTML export → import gives the same document: merged cells, widths, nested tasks, marks', async () => {
    expect(visible(await roundTrip(TABLES_AND_TASKS_DOCUMENT, 'html'))).toEqual(
      visible(TABLES_AND_TASKS_DOCUMENT),
    );
  });

  it('Word export → import gives the same document but for column widths', async () => {
    expect(visible(await roundTrip(TABLES_AND_TASKS_DOCUMENT, 'docx'))).toEqual(
      visible(withoutColumnWidths(TABLES_AND_TASKS_DOCUMENT)),
    );
  });

  it('Markdown export → import gives the same GFM table and nested task list', async () => {
    expect(visible(await roundTrip(GFM_TABLE_DOCUMENT, 'md'))).toEqual(visible(GFM_TABLE_DOCUMENT));
  });

  it('Markdown keeps sub/superscript and highlight, and a merged cell keeps the other cells in their columns', async () => {
    const file = await exportDocument('Round Trip', TABLES_AND_TASKS_DOCUMENT, 'md');
    const body = String(file.body);
    expect(body).toContain('H<sub>2</sub>O');
    expect(body).toContain('<mark>this matters</mark>');
    expect(body).toMatch(/\| Luna base +\| +\| Planned \|/);
    expect(body).toContain('- [x] Write the outline\n- [ ] Draft the chapters\n  - [x] Chapter one');
    const content = await roundTrip(TABLES_AND_TASKS_DOCUMENT, 'md');
    const [paragraph, table, tasks] = content.content;
    expect(paragraph!.content!.find((node) => node.text === 'this matters')!.marks).toEqual([
      { type: 'highlight' },
    ]);
    expect(paragraph!.content!.filter((node) => node.marks?.[0]?.type === 'subscript')).toHaveLength(1);
    expect(paragraph!.content!.filter((node) => node.marks?.[0]?.type === 'superscript')).toHaveLength(1);
    expect(table!.content!.map((row) => row.content!.map(texts))).toEqual([
      ['Planet', 'Moons', 'Notes'],
      ['Earth', 'One', 'Home'],
      ['Luna base', '', 'Planned'],
      ['Mars and Venus', '', 'Red'],
    ]);
    expect(visible({ type: 'doc', content: [tasks!] })).toEqual(
      visible({ type: 'doc', content: [TABLES_AND_TASKS_DOCUMENT.content[2]!] }),
    );
  });

  it('plain text writes tables tab-separated and tasks as [ ] / [x]', async () => {
    const body = String((await exportDocument('T', TABLES_AND_TASKS_DOCUMENT, 'txt')).body);
    expect(body).toContain('Planet\tMoons\tNotes\nEarth\tOne\tHome');
    expect(body).toContain('[x] Write the outline\n[ ] Draft the chapters');
  });

  it('LibreOffice opens the Word file: a table with a header row and merged cells, boxes, highlight, sub/sup', async () => {
    const file = await exportDocument('Tables', TABLES_AND_TASKS_DOCUMENT, 'docx');
    const docx = path.join(work, 'tables.docx');
    writeFileSync(docx, file.body as Buffer);
    // A private profile: a concurrent LibreOffice (another test, a desktop) must not share its lock.
    const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
    await run(SOFFICE, [profile, '--headless', '--convert-to', 'fodt', '--outdir', work, docx], {
      timeout: 120_000,
    });
    const fodt = readFileSync(path.join(work, 'tables.fodt'), 'utf8');
    expect(fodt).toContain('<table:table-header-rows>');
    expect(fodt).toMatch(/table:number-columns-spanned="2"[^>]*>[\s\S]*?Mars and Venus/);
    expect(fodt).toMatch(/table:number-rows-spanned="2"[^>]*>[\s\S]*?One/);
    expect(fodt).toContain('☒ Write the outline');
    expect(fodt).toContain('☐ Chapter two');
    expect(fodt).toMatch(/fo:background-color="#ffff00"/i);
    expect(fodt).toMatch(/style:text-position="(-|sub)/);
    expect(fodt).toMatch(/style:text-position="(33%|super)/);
  }, 150_000);

  it('hostile HTML tables and task lists lose handlers, styles and bad values but keep their structure', async () => {
    const html = `<table onclick="alert(1)" style="position: fixed; background: url(javascript:1)">
      <caption onmouseover="x()">Results</caption>
      <tr><th style="text-align: center; background: url(x)" onclick="x()">Name</th><th colspan="9999">Score</th></tr>
      <tr><td rowspan="-3" colwidth="javascript:1">Ada<script>window.pwned = 1</script></td><td colspan="2" colwidth="9999999">10</td></tr>
    </table>
    <ul><li><input type="checkbox" checked onchange="x()"> Done</li><li><input type="checkbox" onclick="x()"> Open</li></ul>
    <p><mark data-color="url(javascript:1)" style="background: red">marked</mark> H<sub onclick="x()">2</sub>O</p>`;
    const res = await upload(server, alice.token, 'hostile.html', html);
    expect(res.status).toBe(201);
    const content = res.body.content as RichTextDoc;
    const serialized = JSON.stringify(content);
    expect(serialized).not.toMatch(/onclick|onchange|onmouseover|javascript|<script|position|url\(|pwned/);
    const [caption, table, tasks, paragraph] = content.content;
    expect(caption).toMatchObject({ type: 'paragraph', content: [{ text: 'Results' }] });
    expect(table!.type).toBe('table');
    const [head, body] = table!.content!;
    expect(head!.content!.map((cell) => [cell.type, cell.attrs ?? {}])).toEqual([
      ['tableHeader', { align: 'center' }],
      ['tableHeader', { colspan: 100 }],
    ]);
    expect(body!.content!.map((cell) => cell.attrs ?? {})).toEqual([{}, { colspan: 2 }]);
    expect(tasks).toMatchObject({
      type: 'taskList',
      content: [
        { type: 'taskItem', attrs: { checked: true } },
        { type: 'taskItem', attrs: { checked: false } },
      ],
    });
    expect(texts(tasks)).toBe('DoneOpen');
    expect(paragraph!.content![0]).toEqual({ type: 'text', text: 'marked', marks: [{ type: 'highlight' }] });
    expect(paragraph!.content).toContainEqual({ type: 'text', text: '2', marks: [{ type: 'subscript' }] });
  });

  it('GFM from elsewhere: task lists with any bullet, tables with alignment and inline formatting', async () => {
    const md = [
      '# Plan',
      '',
      '* [x] Book the hall',
      '* [ ] Send the ==invitations==',
      '',
      '| Item | Cost |',
      '| :--- | ---: |',
      '| **Hall** | 300 |',
    ].join('\n');
    const res = await upload(server, alice.token, 'plan.md', md);
    expect(res.status).toBe(201);
    const [tasks, table] = (res.body.content as RichTextDoc).content;
    expect(tasks).toMatchObject({
      type: 'taskList',
      content: [{ attrs: { checked: true } }, { attrs: { checked: false } }],
    });
    expect(tasks!.content![1]!.content![0]!.content).toContainEqual({
      type: 'text',
      text: 'invitations',
      marks: [{ type: 'highlight' }],
    });
    expect(table!.content![1]!.content![0]).toMatchObject({
      type: 'tableCell',
      attrs: { align: 'left' },
      content: [{ type: 'paragraph', content: [{ text: 'Hall', marks: [{ type: 'bold' }] }] }],
    });
    expect(table!.content![1]!.content![1]).toMatchObject({ attrs: { align: 'right' } });
  });
});
