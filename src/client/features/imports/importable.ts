import { IMPORT_EXTENSIONS } from '@shared/constants';

// Apart from the import hook, so the editor's file drop can tell importable files without the dashboard's import code.

export const IMPORT_ACCEPT = IMPORT_EXTENSIONS.join(',');

export const isImportable = (file: File) => {
  const name = file.name.toLowerCase();
  return IMPORT_EXTENSIONS.some((extension) => name.endsWith(extension));
};
