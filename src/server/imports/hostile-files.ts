import { Deflate } from 'fflate';

/**
 * Hostile Word files for the import tests, built in memory in milliseconds: a zip bomb's deflated data is
 * one megabyte of a repeated byte compressed once, its steady block repeated (a sync flush after each
 * megabyte makes every block after the second the same bytes), so a gigabyte costs a megabyte.
 */

const MIB = 1024 * 1024;

/** `mebibytes` MiB of `byte`, as raw deflate data about 1/1000 of that size. */
export function deflatedRepeat(mebibytes: number, byte = 0x20): Uint8Array {
  const chunk = new Uint8Array(MIB).fill(byte);
  let output: Uint8Array[] = [];
  const deflate = new Deflate({ level: 1 }, (data) => output.push(data));
  const blocks: Uint8Array[] = [];
  for (let i = 0; i < Math.min(mebibytes, 3); i++) {
    deflate.push(chunk);
    deflate.flush(true);
    blocks.push(concat(output));
    output = [];
  }
  deflate.push(new Uint8Array(0), true);
  const end = concat(output);
  const steady = blocks.at(-1)!;
  const repeats = Array.from({ length: Math.max(0, mebibytes - blocks.length) }, () => steady);
  return concat([...blocks, ...repeats, end]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export interface RawZipEntry {
  name: string;
  /** The entry's bytes as stored in the zip: deflated when `deflated`, else as is. */
  data: Uint8Array;
  deflated: boolean;
  /** The uncompressed size the zip claims, true or not. */
  declaredSize: number;
}

/**
 * A zip written byte by byte, so its directory can lie. `junkBefore` bytes in front are not counted in its
 * offsets (as in a self-extracting archive), which Word readers tolerate.
 */
export function rawZip(entries: RawZipEntry[], { junkBefore = 0 } = {}): Uint8Array {
  const encoder = new TextEncoder();
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const header = new DataView(new ArrayBuffer(30));
    header.setUint32(0, 0x04034b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(8, entry.deflated ? 8 : 0, true);
    header.setUint32(18, entry.data.length, true);
    header.setUint32(22, entry.declaredSize, true);
    header.setUint16(26, name.length, true);
    local.push(new Uint8Array(header.buffer), name, entry.data);
    const record = new DataView(new ArrayBuffer(46));
    record.setUint32(0, 0x02014b50, true);
    record.setUint16(4, 20, true);
    record.setUint16(6, 20, true);
    record.setUint16(10, entry.deflated ? 8 : 0, true);
    record.setUint32(20, entry.data.length, true);
    record.setUint32(24, entry.declaredSize, true);
    record.setUint16(28, name.length, true);
    record.setUint32(42, offset, true);
    central.push(new Uint8Array(record.buffer), name);
    offset += 30 + name.length + entry.data.length;
  }
  const directory = concat(central);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directory.length, true);
  end.setUint32(16, offset, true);
  const junk = new Uint8Array(junkBefore).fill(0x4a);
  return concat([junk, ...local, directory, new Uint8Array(end.buffer)]);
}

const stored = (name: string, text: string): RawZipEntry => {
  const data = new TextEncoder().encode(text);
  return { name, data, deflated: false, declaredSize: data.length };
};

/** The parts a Word reader needs to reach word/document.xml. */
export const WORD_SKELETON = [
  stored(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ),
  stored(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  ),
];

/** A .docx whose word/document.xml is `mebibytes` MiB of spaces, claiming `declaredSize` bytes. */
export function docxBomb(mebibytes: number, declaredSize: number, { junkBefore = 0 } = {}): Uint8Array {
  return rawZip(
    [
      ...WORD_SKELETON,
      { name: 'word/document.xml', data: deflatedRepeat(mebibytes), deflated: true, declaredSize },
    ],
    { junkBefore },
  );
}

/** The bomb variants an outside probe used: a lying size, junk in front, and an honest gigabyte. */
export const DOCX_BOMBS = {
  'a gigabyte claiming 1,000 bytes': () => docxBomb(1024, 1_000),
  '200 MiB behind 256 junk bytes, size honest': () => docxBomb(200, 200 * MIB, { junkBefore: 256 }),
  'a gigabyte behind 256 junk bytes claiming 1,000 bytes': () => docxBomb(1024, 1_000, { junkBefore: 256 }),
  'an honest gigabyte': () => docxBomb(1024, 1024 * MIB - 1),
};
