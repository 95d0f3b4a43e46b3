import { DEFAULT_LINK_PROTOCOL } from '@shared/constants';
import { isSafeHref } from '@shared/editor/links';

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/iu;

/**
 * Turns what the user typed into the Add Link prompt into an href, or null when it must be rejected.
 * 'example.com' gets the default protocol (http); paths, anchors and queries stay relative.
 */
export function normalizeLinkInput(input: string): string | null {
  const value = input.trim();
  if (value === '' || !isSafeHref(value)) return null;
  if (HAS_SCHEME.test(value) || /^[/#?.]/u.test(value)) return value;
  if (/^[^\s/]+\.[^\s/]+/u.test(value)) return `${DEFAULT_LINK_PROTOCOL}://${value}`;
  return value;
}
