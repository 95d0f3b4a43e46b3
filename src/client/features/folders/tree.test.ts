import { describe, expect, it } from 'vitest';
import type { Folder } from '@shared/schemas/folders';
import { folderLines } from './tree';

const folder = (id: string, parentId: string | null): Folder => ({
  id,
  parentId,
  name: id,
  position: 0,
  documentCount: 0,
  createdAt: '',
  updatedAt: '',
});

describe('folderLines', () => {
  const folders = [
    folder('book', null),
    folder('notes', null),
    folder('part', 'book'),
    folder('scene', 'part'),
  ];

  it('puts each folder before its sub-folders, in the order given, with its depth', () => {
    expect(folderLines(folders).map((line) => [line.folder.id, line.depth, line.hasChildren])).toEqual([
      ['book', 0, true],
      ['part', 1, true],
      ['scene', 2, false],
      ['notes', 0, false],
    ]);
  });

  it('leaves out what sits under a collapsed folder', () => {
    expect(folderLines(folders, new Set(['book'])).map((line) => line.folder.id)).toEqual(['book', 'notes']);
  });
});
