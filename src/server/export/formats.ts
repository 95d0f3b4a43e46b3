/** Formats the server converts a document to (GET /api/documents/:id/export?format=…). */
export const SERVER_EXPORT_FORMATS = ['md', 'html', 'txt', 'docx'] as const;
export type ServerExportFormat = (typeof SERVER_EXPORT_FORMATS)[number];
