import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { exportDocument } from './service';

const run = promisify(execFile);
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';

const change = (id: string, author: string) => ({
  id,
  author_id: `user-${author}`,
  author_name: author,
  source: 'user',
  created_at: '2026-11-23T12:00:00.000Z',
});

/** "The quick fox." with "quick" proposed for deletion and "swift" proposed in its place, by Ada. */
const PENDING: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'The ' },
        { type: 'text', text: 'quick', marks: [{ type: 'deletion', attrs: change('s1', 'Ada') }] },
        { type: 'text', text: 'swift', marks: [{ type: 'insertion', attrs: change('s1', 'Ada') }] },
        { type: 'text', text: ' fox.' },
      ],
    },
  ],
};

const work = mkdtempSync(path.join(os.tmpdir(), 'qw-tracked-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('exports of a document with pending suggestions', () => {
  it('Markdown, text and HTML show the text as it stood', async () => {
    for (const format of ['md', 'txt', 'html'] as const) {
      const body = String((await exportDocument('Fox', PENDING, format)).body);
      expect(body, format).toContain('The quick fox.');
      expect(body, format).not.toContain('swift');
    }
  });

  it('Word keeps them as tracked changes with author and date', async () => {
    const file = await exportDocument('Fox', PENDING, 'docx');
    const xml = strFromU8(unzipSync(new Uint8Array(file.body as Buffer))['word/document.xml']!);
    expect(xml).toMatch(
      /<w:ins [^>]*w:author="Ada"[^>]*w:date="2026-11-23T12:00:00Z"[^>]*>.*swift.*<\/w:ins>/s,
    );
    expect(xml).toMatch(/<w:del [^>]*w:author="Ada"[^>]*>.*<w:delText[^>]*>quick<\/w:delText>.*<\/w:del>/s);
  });

  it('LibreOffice opens the Word file with the changes as revisions to review', async () => {
    const file = await exportDocument('Fox', PENDING, 'docx');
    const docx = path.join(work, 'fox.docx');
    writeFileSync(docx, file.body as Buffer);
    // A private profile: a concurrent LibreOffice (another test, a desktop) must not share its lock.
    const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
    await run(SOFFICE, [profile, '--headless', '--convert-to', 'fodt', '--outdir', work, docx], {
      timeout: 120_000,
    });
    const fodt = readFileSync(path.join(work, 'fox.fodt'), 'utf8');
    expect(fodt).toContain('<text:tracked-changes');
    const regions = fodt.match(/<text:changed-region[\s\S]*?<\/text:changed-region>/g) ?? [];
    const regionOf = (kind: string) =>
      regions.find(
        (region) => region.includes(`<text:${kind}>`) && region.includes('<dc:creator>Ada</dc:creator>'),
      );
    const inserted = regionOf('insertion');
    const deleted = regionOf('deletion');
    expect(inserted && deleted).toBeTruthy();
    // Each change's text sits in the paragraph between the marks of its region.
    const idOf = (region: string) => /text:id="([^"]+)"/.exec(region)![1]!;
    const between = (id: string) =>
      new RegExp(
        `<text:change-start text:change-id="${id}"/>([^<]*)<text:change-end text:change-id="${id}"/>`,
      ).exec(fodt)?.[1];
    expect(between(idOf(deleted!))).toBe('quick');
    expect(between(idOf(inserted!))).toBe('swift');
  }, 150_000);
});
