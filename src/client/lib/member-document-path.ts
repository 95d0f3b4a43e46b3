/**
 * Where a member opens a document someone shared with them (features/people). Here rather than in the feature:
 * the owner's editor sends a member there, and the editor imports no feature.
 */
export const memberDocumentPath = (documentId: string) => `/shared-with-me/${documentId}`;
