import { DEFAULT_DOCUMENT_TITLE } from '@shared/constants';

/** The name a document goes by on screen: a blank title (older rows, a title being typed) is "Untitled Document". */
export function displayTitle(title: string | null | undefined): string {
  return title?.trim() || DEFAULT_DOCUMENT_TITLE;
}
