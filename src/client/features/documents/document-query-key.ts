/**
 * The editor's query of a document: GET /api/documents/:id?content=false, everything but its content, which the
 * editor opens from this browser's offline copy or the document's Yjs state instead of a second time as JSON (on
 * a book, the largest response of the page). Its path is the key, fetched by the default query function.
 */
export const documentQueryKey = (id: string) => [`/api/documents/${id}?content=false`] as const;

/** The whole document, content included (GET /api/documents/:id): the editor's read-only preview, when needed. */
export const documentContentQueryKey = (id: string) => [`/api/documents/${id}`] as const;
