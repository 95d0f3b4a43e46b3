import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { DocumentSummary } from '@shared/schemas/documents';
import type { LibraryPage, LibrarySort, SearchResult } from '@shared/schemas/search';
import { DOCUMENTS_PATH } from './api';

/** The key of one document's own query: `/api/documents/:id`, with or without a query string. */
const DOCUMENT_PATH = /^\/api\/documents\/([^/?]+)(?:\?.*)?$/u;

interface DocumentFacts {
  id: string;
  title: string;
  updated_at?: string;
}

interface Listed {
  id: string;
  title: string;
  updated_at: string;
  /** Library pages only: pinned documents come first. */
  pinned?: boolean;
}

/**
 * The dashboard's lists (library pages, search hits, the quick switcher's recent documents) are cached under the
 * documents key, apart from the copy of a document the editor keeps under its own key. Whenever that copy changes
 * (the title saved, a rename from another session), every cached list takes the new title and date at once, in the
 * list's order (the same order the server uses), and is marked stale: the next time a list is shown it is also
 * asked again, so anything else that changed comes from the server. Without this, going back from the editor
 * showed the old title, in the old place, until a reload.
 */
export function keepListsInStepWithDocuments(queryClient: QueryClient): () => void {
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const facts = documentFacts(event.query);
    if (facts) updateLists(queryClient, facts);
  });
}

function documentFacts(query: Query): DocumentFacts | null {
  const [path] = query.queryKey;
  if (typeof path !== 'string' || !DOCUMENT_PATH.test(path)) return null;
  const data = query.state.data as Partial<DocumentFacts> | null | undefined;
  if (!data || typeof data.id !== 'string' || typeof data.title !== 'string') return null;
  return { id: data.id, title: data.title, updated_at: data.updated_at };
}

function updateLists(queryClient: QueryClient, facts: DocumentFacts): void {
  let changed = false;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: [DOCUMENTS_PATH] })) {
    const next = updatedList(query.queryKey, query.state.data, facts);
    if (next === undefined) continue;
    queryClient.setQueryData(query.queryKey, next);
    changed = true;
  }
  if (changed) void queryClient.invalidateQueries({ queryKey: [DOCUMENTS_PATH] });
}

/** The list with the document's new facts, or undefined when the list has nothing to change. */
function updatedList(key: QueryKey, data: unknown, facts: DocumentFacts): unknown {
  if (!data) return undefined;
  const [, kind, sort] = key;
  if (kind === undefined && Array.isArray(data)) {
    const list = replaceIn(data as DocumentSummary[], facts);
    return list ? sortList(list, 'updated') : undefined;
  }
  if (kind === 'library') {
    const page = data as LibraryPage;
    const list = replaceIn(page.documents, facts);
    return list ? { ...page, documents: sortList(list, sort as LibrarySort) } : undefined;
  }
  if (kind === 'search') return replaceIn(data as SearchResult[], facts) ?? undefined;
  return undefined;
}

function replaceIn<T extends Listed>(list: readonly T[], facts: DocumentFacts): T[] | null {
  const index = list.findIndex((item) => item.id === facts.id);
  const old = list[index];
  if (!old) return null;
  const updatedAt =
    facts.updated_at !== undefined && Date.parse(facts.updated_at) > Date.parse(old.updated_at)
      ? facts.updated_at
      : old.updated_at;
  if (old.title === facts.title && old.updated_at === updatedAt) return null;
  const next = [...list];
  next[index] = { ...old, title: facts.title, updated_at: updatedAt };
  return next;
}

/** The server's orders (documents/search-repository.ts), for the keys a client can compare. */
function sortList<T extends Listed>(list: T[], sort: LibrarySort): T[] {
  const pinnedFirst = (a: T, b: T) => Number(b.pinned ?? false) - Number(a.pinned ?? false);
  if (sort === 'updated') {
    return list.sort((a, b) => pinnedFirst(a, b) || Date.parse(b.updated_at) - Date.parse(a.updated_at));
  }
  if (sort === 'title') {
    return list.sort(
      (a, b) =>
        pinnedFirst(a, b) ||
        compare(a.title.toLowerCase(), b.title.toLowerCase()) ||
        compare(a.title, b.title) ||
        compare(a.id, b.id),
    );
  }
  return list;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
