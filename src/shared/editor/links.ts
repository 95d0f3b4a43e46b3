import { ALLOWED_LINK_PROTOCOLS } from '../constants';

const SCHEME = /^([a-z][a-z0-9+.-]*):/iu;
// Characters browsers strip or ignore inside a scheme ("java\tscript:", "\u0000javascript:").
// eslint-disable-next-line no-control-regex
const IGNORED = /[\u0000-\u0020\u007f-\u009f]/gu;

/**
 * SPEC §5: an href is kept only when it is relative or its scheme is on the whitelist
 * (ALLOWED_LINK_PROTOCOLS). Used by the Link extension (rendering, parsing, setLink) and by the server
 * when it normalizes content that arrives through the API, so both sides apply the same rule.
 */
export function isAllowedHref(href: string): boolean {
  const compact = href.replace(IGNORED, '');
  const scheme = SCHEME.exec(compact)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  return (ALLOWED_LINK_PROTOCOLS as readonly string[]).includes(scheme);
}
