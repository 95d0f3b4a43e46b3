/** The query of GET /api/documents/:id (its path is the key, fetched by the default query function). */
export const documentQueryKey = (id: string) => [`/api/documents/${id}`] as const;
