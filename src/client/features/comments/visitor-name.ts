import { VISITOR_NAME_KEY } from './constants';

/** A share-link visitor's display name, asked once and remembered in this browser. */
export function storedVisitorName(): string {
  try {
    return localStorage.getItem(VISITOR_NAME_KEY) ?? '';
  } catch {
    return '';
  }
}

export function rememberVisitorName(name: string): void {
  try {
    localStorage.setItem(VISITOR_NAME_KEY, name);
  } catch {
    // Private browsing without storage: asked again next time.
  }
}
