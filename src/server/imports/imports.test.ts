import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_NODE_DOCUMENT } from '../../shared/export/fixture';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { exportDocument } from '../export';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { upload, visible } from './test-helpers';

/** The fixture without what a format cannot carry. */
function without(doc: RichTextDoc, drop: (node: RichTextNode) => RichTextNode | null): RichTextDoc {
  const walk = (nodes: RichTextNode[] | undefined): RichTextNode[] | undefined =>
    nodes?.flatMap((node) => {
      const kept = drop(structuredClone(node));
      return kept ? [{ ...kept, ...(kept.content ? { content: walk(kept.content) } : {}) }] : [];
    });
  return { type: 'doc', content: walk(doc.content)! };
}

const noAlignment = (node: RichTextNode): RichTextNode => {
  if (node.attrs) delete node.attrs.textAlign;
  return node;
};
const noTextStyle = (node: RichTextNode): RichTextNode => {
  if (node.marks) node.marks = node.marks.filter((mark) => mark.type !== 'textStyle');
  if (node.marks?.length === 0) delete node.marks;
  return node;
};

describe('POST /api/documents/import', () => {
  let server: TestServer;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ overrides: { MAX_BODY_BYTES: 256 * 1024 } });
    alice = await createUser(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('HTML export → import gives the same document, every node and mark', async () => {
    const file = await exportDocument('Round Trip', EVERY_NODE_DOCUMENT, 'html');
    const res = await upload(server, alice.token, file.fileName, file.body as string);
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Round Trip');
    expect(res.body.degraded).toEqual([]);
    expect(visible(res.body.content)).toEqual(visible(EVERY_NODE_DOCUMENT));
    // It is a real document of the user's.
    const stored = await server.request('GET', `/api/documents/${res.body.id}`, { token: alice.token });
    expect(stored.status).toBe(200);
    expect(stored.body.content).toEqual(res.body.content);
  });

  it('Markdown export → import gives the same document except alignment and text styles', async () => {
    const file = await exportDocument('Round Trip', EVERY_NODE_DOCUMENT, 'md');
    const res = await upload(server, alice.token, file.fileName, file.body as string);
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Round Trip');
    const expected = without(EVERY_NODE_DOCUMENT, (node) => noTextStyle(noAlignment(node)));
    expect(visible(res.body.content)).toEqual(visible(expected));
  });

  it('Word export → import gives the same document, every node, mark and attribute', async () => {
    const file = await exportDocument('Round Trip', EVERY_NODE_DOCUMENT, 'docx');
    const res = await upload(server, alice.token, file.fileName, file.body as Buffer);
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Round Trip');
    expect(visible(res.body.content)).toEqual(visible(EVERY_NODE_DOCUMENT));
  });

  it('Markdown: GFM tables stay tables, deep headings become level 3, images their alt text, and says so', async () => {
    const md = [
      '# Field Notes',
      '',
      '#### Small heading',
      '',
      '| Bird | Count |',
      '| ---- | ----- |',
      '| Wren | 3 |',
      '',
      '![A wren on a branch](https://example.com/wren.png)',
      '',
      'Some ~~old~~ *new* text with [a link](javascript:alert(1)).',
    ].join('\n');
    const res = await upload(server, alice.token, 'notes.md', md);
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Field Notes');
    const content = JSON.stringify(res.body.content);
    expect(res.body.content.content[0]).toMatchObject({ type: 'heading', attrs: { level: 3 } });
    expect(res.body.content.content[1]).toMatchObject({ type: 'table' });
    expect(content).toContain('"tableHeader"');
    expect(content).toContain('Wren');
    expect(content).toContain('A wren on a branch');
    expect(content).not.toContain('javascript');
    expect(res.body.degraded).toEqual(
      expect.arrayContaining([
        { kind: 'heading_level', count: 1, message: '1 heading below level 3 became level 3' },
        { kind: 'image', count: 1, message: '1 image became its alt text' },
      ]),
    );
  });

  it('hostile HTML loses scripts, handlers and dangerous links but keeps its text', async () => {
    const html = `<html><head><title>x</title><script>window.pwned=1</script></head><body>
      <p onclick="alert(1)">Hello <b>world</b><img src=x onerror="alert(1)"></p>
      <iframe src="https://evil.example"></iframe>
      <a href="javascript:alert(1)">click</a> <a href="data:text/html,<script>1</script>">data</a>
      <style>p{color:red}</style><svg><script>alert(2)</script></svg>
      <p style="color: red; background: url(https://evil.example/x)">Styled</p></body></html>`;
    const res = await upload(server, alice.token, 'page.html', html);
    expect(res.status).toBe(201);
    const content = JSON.stringify(res.body.content);
    expect(content).toContain('Hello');
    expect(content).toContain('"bold"');
    expect(content).toContain('click');
    expect(content).not.toMatch(/pwned|alert|onerror|onclick|javascript|data:|evil|<script|color:red/);
    expect(res.body.title).toBe('page');
  });

  it('plain text: paragraphs at blank lines, line breaks inside, title from the file name', async () => {
    const res = await upload(
      server,
      alice.token,
      'shopping_list.txt',
      'Apples\nPears\n\n<b>Not bold</b>\r\n',
    );
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('shopping list');
    expect(res.body.content).toEqual({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'Apples' }, { type: 'hardBreak' }, { type: 'text', text: 'Pears' }],
        },
        { type: 'paragraph', content: [{ type: 'text', text: '<b>Not bold</b>' }] },
      ],
    });
  });

  it('a Word file with deep headings and a title style', async () => {
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun('Quarterly Letter')] }),
            new Paragraph({ heading: HeadingLevel.HEADING_5, children: [new TextRun('Fine print')] }),
            new Paragraph({ children: [new TextRun({ text: 'Dear reader', bold: true })] }),
          ],
        },
      ],
    });
    const res = await upload(server, alice.token, 'letter.docx', await Packer.toBuffer(doc));
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Quarterly Letter');
    expect(res.body.content.content[0]).toMatchObject({ type: 'heading', attrs: { level: 3 } });
    expect(res.body.degraded).toEqual([
      { kind: 'heading_level', count: 1, message: '1 heading below level 3 became level 3' },
    ]);
  });

  it('a Word file from elsewhere keeps alignment and the font and size that differ from its body text', async () => {
    const body = { font: 'Arial', size: 22 };
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({
              alignment: AlignmentType.CENTER,
              children: [new TextRun({ text: 'Centred opening line', ...body })],
            }),
            new Paragraph({
              children: [
                new TextRun({ text: 'Body text set in Arial, ', ...body }),
                new TextRun({ text: 'then a Georgia aside', font: 'Georgia', size: 32 }),
                new TextRun({ text: ' and body again.', ...body }),
              ],
            }),
            new Paragraph({ children: [new TextRun({ text: 'More body text in the same face.', ...body })] }),
          ],
        },
      ],
    });
    const res = await upload(server, alice.token, 'essay.docx', await Packer.toBuffer(doc));
    expect(res.status).toBe(201);
    const [first, second, third] = res.body.content.content as RichTextNode[];
    expect(first).toMatchObject({ type: 'paragraph', attrs: { textAlign: 'center' } });
    expect(first!.content![0]!.marks).toBeUndefined();
    expect(second!.content!.map((node) => node.text)).toEqual([
      'Body text set in Arial, ',
      'then a Georgia aside',
      ' and body again.',
    ]);
    expect(second!.content![0]!.marks).toBeUndefined();
    expect(second!.content![1]!.marks).toEqual([
      { type: 'textStyle', attrs: { fontFamily: 'Georgia', fontSize: '21.33px' } },
    ]);
    expect(third!.content![0]!.marks).toBeUndefined();
  });

  it('text in a Word file cannot forge the markers that carry styles through the conversion', async () => {
    const forged = `\uE000${encodeURIComponent('span:color: red; background: url(x)')}\uE001owned`;
    const doc = new Document({
      sections: [{ children: [new Paragraph({ children: [new TextRun(forged)] })] }],
    });
    const res = await upload(server, alice.token, 'forged.docx', await Packer.toBuffer(doc));
    expect(res.status).toBe(201);
    const [paragraph] = res.body.content.content as RichTextNode[];
    expect(paragraph!.content).toEqual([
      { type: 'text', text: `${encodeURIComponent('span:color: red; background: url(x)')}owned` },
    ]);
  });

  it('a corrupt Word file answers 422 import_failed and creates nothing', async () => {
    const before = (await server.request('GET', '/api/documents', { token: alice.token })).body.length;
    const res = await upload(
      server,
      alice.token,
      'broken.docx',
      new Uint8Array([80, 75, 3, 4, 1, 2, 3, 4, 5]),
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('import_failed');
    expect(res.body.message).toMatch(/could not be read/);
    const invalidUtf8 = await upload(
      server,
      alice.token,
      'latin.txt',
      new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
    );
    expect(invalidUtf8.status).toBe(422);
    expect((await server.request('GET', '/api/documents', { token: alice.token })).body.length).toBe(before);
  });

  it('convert gives the content with its opening heading and creates nothing', async () => {
    const before = (await server.request('GET', '/api/documents', { token: alice.token })).body.length;
    const res = await upload(
      server,
      alice.token,
      'part.md',
      '# Part Two\n\n##### Aside\n\nText.',
      '/api/documents/import/convert',
    );
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Part Two');
    expect(res.body.content.content.map((node: { type: string }) => node.type)).toEqual([
      'heading',
      'heading',
      'paragraph',
    ]);
    expect(res.body.degraded).toHaveLength(1);
    expect((await server.request('GET', '/api/documents', { token: alice.token })).body.length).toBe(before);
    expect((await upload(server, alice.token, 'x.pdf', '%PDF', '/api/documents/import/convert')).status).toBe(
      415,
    );
    expect((await upload(server, undefined, 'x.md', '# x', '/api/documents/import/convert')).status).toBe(
      401,
    );
  });

  it('refuses files built to exhaust the parser with 422 and keeps serving', async () => {
    const deepHtml = '<blockquote>'.repeat(5_000) + 'deep' + '</blockquote>'.repeat(5_000);
    const deepQuotes = '>'.repeat(5_000) + ' deep';
    const deepList = Array.from({ length: 400 }, (_, i) => '  '.repeat(i) + '- item').join('\n');
    // 80 MB of zeros in an 80 KB "Word" file.
    const bomb = zipSync({ 'word/document.xml': new Uint8Array(80 * 1024 * 1024) }, { level: 9 });
    for (const [name, body] of [
      ['deep.html', deepHtml],
      ['quotes.md', deepQuotes],
      ['list.md', deepList],
      ['bomb.docx', bomb],
    ] as const) {
      const res = await upload(server, alice.token, name, body);
      expect(res.status, name).toBe(422);
      expect(res.body.code, name).toBe('import_failed');
    }
    expect((await upload(server, alice.token, 'fine.md', '# Still fine')).status).toBe(201);
  });

  it('gives up on Markdown that would take the parser minutes, without stalling other requests', async () => {
    const started = Date.now();
    const slow = upload(server, alice.token, 'emphasis.md', '*a'.repeat(100_000));
    // Meanwhile the server answers other requests at once.
    const health = await server.request('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    const res = await slow;
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('import_failed');
    // Its import worker runs out of time or of memory (whichever comes first on this machine), or on a fast
    // moment the parser finishes and the result is refused for its size. Either way a clear refusal, and the
    // server kept answering meanwhile.
    expect(res.body.message).toMatch(/took too long|needs more memory|more than \d+ nodes/);
  }, 20_000);

  it('refuses unsupported types with 415, oversized files with 413 and strangers with 401', async () => {
    const pdf = await upload(server, alice.token, 'paper.pdf', '%PDF-1.7');
    expect(pdf.status).toBe(415);
    expect(pdf.body.code).toBe('unsupported_media_type');
    const json = await server.request('POST', '/api/documents/import', {
      token: alice.token,
      body: { a: 1 },
    });
    expect(json.status).toBe(415);
    const big = await upload(server, alice.token, 'big.txt', 'word '.repeat(60_000));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
    expect((await upload(server, undefined, 'a.txt', 'hi')).status).toBe(401);
  });
});

describe('import and plan limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ overrides: { ENFORCE_PLAN_LIMITS: true } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an import beyond the plan’s document count is refused like any new document', async () => {
    const user = await createUser(server, { plan: 'gratis' });
    for (let i = 0; i < 3; i++)
      expect((await upload(server, user.token, `n${i}.txt`, 'text')).status).toBe(201);
    const refused = await upload(server, user.token, 'n4.txt', 'text');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_limit');
  });
});
