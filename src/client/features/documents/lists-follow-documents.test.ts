import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { LibraryPage } from '@shared/schemas/search';
import { documentQueryKey } from './document-query-key';
import { keepListsInStepWithDocuments } from './lists-follow-documents';

const libraryKey = (sort: string) => ['/api/documents', 'library', sort, 60];
const doc = (id: string, title: string, updated: string, pinned = false) => ({
  id,
  title,
  preview: '',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: updated,
  is_public: false,
  pinned,
});

describe('cached lists follow the editor’s copy of a document', () => {
  it('takes a new title and date at once, in the list’s order, and marks the list stale', () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    keepListsInStepWithDocuments(client);
    const page: LibraryPage = {
      total: 3,
      documents: [
        doc('c', 'Cherries', '2026-01-03T00:00:00.000Z'),
        doc('b', 'Bananas', '2026-01-02T00:00:00.000Z'),
        doc('a', 'Apples', '2026-01-01T00:00:00.000Z'),
      ],
    };
    client.setQueryData(libraryKey('updated'), page);
    client.setQueryData(libraryKey('title'), { ...page, documents: [...page.documents].reverse() });

    client.setQueryData(documentQueryKey('a'), {
      id: 'a',
      title: 'Zucchini bread',
      updated_at: '2026-01-04T00:00:00.000Z',
    });

    const byUpdate = client.getQueryData<LibraryPage>(libraryKey('updated'))!;
    expect(byUpdate.total).toBe(3);
    expect(byUpdate.documents.map((d) => d.title)).toEqual(['Zucchini bread', 'Cherries', 'Bananas']);
    const byTitle = client.getQueryData<LibraryPage>(libraryKey('title'))!;
    expect(byTitle.documents.map((d) => d.title)).toEqual(['Bananas', 'Cherries', 'Zucchini bread']);
    expect(client.getQueryState(libraryKey('updated'))?.isInvalidated).toBe(true);
  });

  it('keeps pinned documents first when an unpinned one becomes the latest', () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    keepListsInStepWithDocuments(client);
    const page: LibraryPage = {
      total: 2,
      documents: [
        doc('p', 'Pinned', '2026-01-01T00:00:00.000Z', true),
        doc('b', 'Bananas', '2026-01-02T00:00:00.000Z'),
      ],
    };
    client.setQueryData(libraryKey('updated'), page);
    client.setQueryData(documentQueryKey('b'), {
      id: 'b',
      title: 'Banana bread',
      updated_at: '2026-01-05T00:00:00.000Z',
    });
    const next = client.getQueryData<LibraryPage>(libraryKey('updated'))!;
    expect(next.documents.map((d) => d.title)).toEqual(['Pinned', 'Banana bread']);
  });

  it('leaves a list alone when the document is not in it or nothing changed', () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    keepListsInStepWithDocuments(client);
    const page: LibraryPage = { total: 1, documents: [doc('b', 'Bananas', '2026-01-02T00:00:00.000Z')] };
    client.setQueryData(libraryKey('updated'), page);
    client.setQueryData(documentQueryKey('a'), { id: 'a', title: 'Elsewhere' });
    client.setQueryData(documentQueryKey('b'), { id: 'b', title: 'Bananas' });
    expect(client.getQueryData(libraryKey('updated'))).toBe(page);
    expect(client.getQueryState(libraryKey('updated'))?.isInvalidated).toBe(false);
  });
});
