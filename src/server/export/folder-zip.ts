import { strToU8, zipSync, type Zippable } from 'fflate';
import { exportFileName } from '../../shared/export/filename';
import { exportDocument, type PictureReader, type ServerExportFormat } from './service';

/**
 * A folder exported as one .zip: each document converted as the editor's Export menu converts it, sub-folders
 * as directories. Entry names keep the writer's titles (only characters no file system accepts are replaced),
 * and two documents of the same title in one folder become "Title.md" and "Title (2).md".
 */

export interface FolderExportInput {
  name: string;
  folders: { id: string; path: string[] }[];
  documents: { title: string; content: unknown; folderId: string }[];
}

const NAME_MAX_CHARS = 120;
// Reserved on Windows or macOS, control characters, and the path separators.
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARS = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

function entryName(name: string, fallback: string): string {
  const cleaned = name
    .replace(UNSAFE_NAME_CHARS, '_')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, NAME_MAX_CHARS)
    .trim();
  return cleaned || fallback;
}

export async function folderZip(
  input: FolderExportInput,
  format: ServerExportFormat,
  now = new Date(),
  readPictures?: PictureReader,
): Promise<{ fileName: string; body: Buffer }> {
  const directoryOf = new Map(
    input.folders.map((folder) => [
      folder.id,
      folder.path.map((name) => entryName(name, 'Untitled folder')).join('/'),
    ]),
  );
  const files: Zippable = {};
  const taken = new Set<string>();
  for (const document of input.documents) {
    const directory = directoryOf.get(document.folderId);
    if (directory === undefined) continue;
    const base = (directory ? `${directory}/` : '') + entryName(document.title, 'Untitled Document');
    let path = `${base}.${format}`;
    for (let n = 2; taken.has(path.toLowerCase()); n++) path = `${base} (${n}).${format}`;
    taken.add(path.toLowerCase());
    const file = await exportDocument(document.title, document.content, format, now, readPictures);
    const bytes = typeof file.body === 'string' ? strToU8(file.body) : new Uint8Array(file.body);
    // A .docx is a zip already: storing it again compressed only costs time.
    files[path] = [bytes, { level: format === 'docx' ? 0 : 6, mtime: now }];
  }
  // Sub-folders without documents are kept as empty directories, so the export shows the whole tree.
  for (const directory of directoryOf.values()) {
    if (directory && !Object.keys(files).some((path) => path.startsWith(`${directory}/`)))
      files[directory] = {};
  }
  return { fileName: exportFileName(input.name, 'zip', now), body: Buffer.from(zipSync(files)) };
}
