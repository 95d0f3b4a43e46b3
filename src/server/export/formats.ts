/** Formats the server converts a document to (GET /api/documents/:id/export?format=…). */
export const SERVER_EXPORT_FORMATS = ['md', 'html', 'txt', 'docx'] as const;
export type ServerExportFormat = (typeof SERVER_EXPORT_FORMATS)[number];

/** Formats compiled as a book of one document (src/server/compile) with the default book options. */
export const BOOK_EXPORT_FORMATS = ['epub', 'pdf'] as const;
