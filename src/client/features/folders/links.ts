/** The dashboard showing one folder (`?folder=`), or every document. */
export const folderHref = (folderId: string | null) =>
  folderId === null ? '/' : `/?folder=${encodeURIComponent(folderId)}`;

/** The folder the dashboard's address names, if any. */
export function folderOfSearch(search: string): string | null {
  return new URLSearchParams(search).get('folder') || null;
}
