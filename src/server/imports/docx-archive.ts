import { inflateRawSync } from 'node:zlib';
import { MAX_IMAGE_UPLOAD_BYTES } from '../../shared/constants';
import {
  DOCX_MEDIA_FOLDER,
  IMPORT_MAX_IMAGE_BYTES,
  IMPORT_MAX_UNCOMPRESSED_BYTES,
  IMPORT_MAX_ZIP_ENTRIES,
  ImportImageTooLargeError,
  ImportTooComplexError,
} from './import-limits';

/**
 * A Word file's zip archive, read by us and handed to mammoth as its `file` input, so mammoth never opens
 * the archive itself. Sizes a zip declares are not trusted: each entry is inflated when mammoth asks for it,
 * with the real output counted against one budget for the whole file (IMPORT_MAX_UNCOMPRESSED_BYTES), and
 * inflation stops as soon as the budget is spent; an entry read twice is inflated once. Pictures
 * (`word/media/…`) have their own budget: each at most MAX_IMAGE_UPLOAD_BYTES, all together at most
 * IMPORT_MAX_IMAGE_BYTES; one over it is refused alone (ImportImageTooLargeError, the import skips that
 * picture) before or while it is inflated. Pictures nobody asks for are never inflated.
 *
 * Junk in front of the zip is tolerated the way JSZip (mammoth's own reader) tolerates it: when the central
 * directory is not where the end record says, every offset is shifted by the difference.
 */

const END_SIGNATURE = 0x06054b50;
const ENTRY_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
const STORED = 0;
const DEFLATED = 8;

class DamagedArchiveError extends Error {
  override name = 'DamagedArchiveError';
}

interface Entry {
  method: number;
  /** What the zip declares; trusted only to refuse early, never to allocate. */
  size: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/** What mammoth calls on its `file` input (mammoth/lib/unzip.js). */
export interface MammothZipFile {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<string | Uint8Array>;
  write(name: string, contents: string): void;
  toArrayBuffer(): Promise<ArrayBuffer>;
}

const tooLarge = () =>
  new ImportTooComplexError('The Word file expands to more data than an import may hold.');

const isMedia = (name: string) => name.startsWith(DOCX_MEDIA_FOLDER);

const imageTooLarge = () =>
  new ImportImageTooLargeError('A picture in the Word file is larger than an image may be.');

function findEndRecord(bytes: Buffer): number {
  const searchFrom = Math.max(0, bytes.length - END_RECORD_BYTES - MAX_COMMENT_BYTES);
  for (let i = bytes.length - END_RECORD_BYTES; i >= searchFrom; i--) {
    if (bytes.readUInt32LE(i) === END_SIGNATURE) return i;
  }
  throw new DamagedArchiveError('no end of central directory');
}

function readDirectory(bytes: Buffer): Map<string, Entry> {
  const end = findEndRecord(bytes);
  const count = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const claimedOffset = bytes.readUInt32LE(end + 16);
  // 0xFFFF / 0xFFFFFFFF mean the real values are in a Zip64 record: no Word document needs one.
  if (count === 0xffff || claimedOffset === 0xffffffff || directorySize === 0xffffffff) throw tooLarge();
  if (count > IMPORT_MAX_ZIP_ENTRIES) {
    throw new ImportTooComplexError(
      `The Word file holds more than ${IMPORT_MAX_ZIP_ENTRIES} parts, more than an import may read.`,
    );
  }
  // Junk in front shifts everything: the directory really starts right before the end record.
  const shift = end - directorySize - claimedOffset;
  if (shift < 0) throw new DamagedArchiveError('central directory outside the file');
  const entries = new Map<string, Entry>();
  let declaredTotal = 0;
  let offset = claimedOffset + shift;
  for (let n = 0; n < count; n++) {
    if (offset + 46 > end || bytes.readUInt32LE(offset) !== ENTRY_SIGNATURE) {
      throw new DamagedArchiveError('damaged central directory');
    }
    const nameLength = bytes.readUInt16LE(offset + 28);
    const name = bytes.toString('utf8', offset + 46, offset + 46 + nameLength);
    // An honest size over the budget is refused before anything is inflated (pictures: each on its own).
    const size = bytes.readUInt32LE(offset + 24);
    if (!isMedia(name)) declaredTotal += size;
    if (declaredTotal > IMPORT_MAX_UNCOMPRESSED_BYTES) throw tooLarge();
    entries.set(name, {
      method: bytes.readUInt16LE(offset + 10),
      size,
      compressedSize: bytes.readUInt32LE(offset + 20),
      localHeaderOffset: bytes.readUInt32LE(offset + 42) + shift,
    });
    offset += 46 + nameLength + bytes.readUInt16LE(offset + 30) + bytes.readUInt16LE(offset + 32);
  }
  return entries;
}

/** Opens a .docx for mammoth; refuses Zip64, too many entries and an honest size over the budget at once. */
export function openDocxArchive(bytes: Buffer): MammothZipFile {
  const entries = readDirectory(bytes);
  let budget = IMPORT_MAX_UNCOMPRESSED_BYTES;
  let imageBudget = IMPORT_MAX_IMAGE_BYTES;
  const inflated = new Map<string, Uint8Array>();

  /** An entry's bytes, at most `limit` of them; `over` is what is thrown past it. */
  function inflate(name: string, entry: Entry, limit: number, over: () => Error): Uint8Array {
    const local = entry.localHeaderOffset;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_SIGNATURE) {
      throw new DamagedArchiveError(`damaged entry ${name}`);
    }
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const stop = start + entry.compressedSize;
    if (stop > bytes.length) throw new DamagedArchiveError(`truncated entry ${name}`);
    const compressed = bytes.subarray(start, stop);
    if (entry.method === STORED) {
      if (compressed.length > limit) throw over();
      return compressed;
    }
    if (entry.method === DEFLATED) {
      try {
        // zlib stops as soon as its output passes the limit, whatever the entry declared.
        return inflateRawSync(compressed, { maxOutputLength: Math.max(1, limit) });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw over();
        throw new DamagedArchiveError(`damaged entry ${name}`);
      }
    }
    throw new DamagedArchiveError(`unsupported compression in ${name}`);
  }

  function contents(name: string): Uint8Array {
    const cached = inflated.get(name);
    if (cached) return cached;
    const entry = entries.get(name);
    if (!entry) throw new DamagedArchiveError(`missing ${name}`);
    if (isMedia(name)) {
      // A picture is read once, for the import to store, and not kept here.
      const limit = Math.min(MAX_IMAGE_UPLOAD_BYTES, imageBudget);
      if (entry.size > limit) throw imageTooLarge();
      const data = inflate(name, entry, limit, imageTooLarge);
      imageBudget -= data.length;
      return data;
    }
    const data = inflate(name, entry, budget, tooLarge);
    budget -= data.length;
    inflated.set(name, data);
    return data;
  }

  return {
    exists: (name) => entries.has(name),
    read: async (name, encoding) => {
      const data = contents(name);
      if (encoding === 'base64') return Buffer.from(data).toString('base64');
      return encoding ? new TextDecoder(encoding).decode(data) : data;
    },
    write: () => {
      throw new Error('the import reads Word files, it does not change them');
    },
    toArrayBuffer: () => Promise.reject(new Error('the import reads Word files, it does not write them')),
  };
}
