import { Packer } from 'docx';
import { unzipSync, strFromU8 } from 'fflate';
import { expect, it } from 'vitest';
import { documentToDocx } from './docx';
import { EVERY_NODE_DOCUMENT, HOSTILE_DOCUMENT } from './fixture';

async function documentXml(doc: Parameters<typeof documentToDocx>[1]) {
  const buffer = await Packer.toBuffer(documentToDocx('My Essay', doc));
  const files = unzipSync(new Uint8Array(buffer));
  expect(Object.keys(files)).toContain('word/document.xml');
  return { xml: strFromU8(files['word/document.xml']!), files };
}

it('a .docx export is a real Word file with the text, heading styles, lists and links', async () => {
  const { xml, files } = await documentXml(EVERY_NODE_DOCUMENT);
  for (const text of [
    'Heading One',
    'bold',
    'bullet one',
    'third item',
    'A quoted thought',
    'const answer = 42;',
    'The end.',
  ]) {
    expect(xml).toContain(text);
  }
  expect(xml).toContain('w:val="Heading1"');
  expect(xml).toContain('w:val="Heading2"');
  expect(xml).toContain('w:val="Heading3"');
  expect(xml).toContain('<w:b/>');
  expect(xml).toContain('<w:i/>');
  expect(xml).toMatch(/<w:u w:val="single"\/>/);
  expect(xml).toContain('<w:strike/>');
  expect(xml).toContain('<w:hyperlink');
  expect(xml).toContain('w:val="both"');
  const numbering = strFromU8(files['word/numbering.xml']!);
  expect(numbering).toContain('<w:start w:val="3"/>');
  expect(strFromU8(files['word/_rels/document.xml.rels']!)).toContain('https://example.com/page');
});

it('a javascript: or data: link never becomes a hyperlink in Word', async () => {
  const { files } = await documentXml(HOSTILE_DOCUMENT);
  const rels = strFromU8(files['word/_rels/document.xml.rels']!);
  expect(rels).not.toContain('javascript:');
  expect(rels).not.toContain('data:');
});
