import { ALLOWED_LINK_PROTOCOLS } from '../constants';

/**
 * Link safety: an href is kept only when it is relative or its scheme is on the whitelist. One implementation
 * for the editor (rendering, parsing, setLink, autolink), the server's exports and the content validator
 * (validate.ts), which also sees through entity-encoded and whitespace-split schemes.
 */

/** Longest href kept; a longer one is blanked. */
export const MAX_HREF_LENGTH = 8_192;

// Characters browsers ignore or strip inside URLs (C0 controls, spaces, NBSP and other Unicode spaces):
// `java\nscript:` and ` javascript:` are still javascript: to a browser. Same set as DOMPurify/TipTap.
// eslint-disable-next-line no-control-regex
const URL_IGNORED_CHARS = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000\uFEFF]/g;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const NAMED_ENTITIES: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  nbsp: '\u00a0',
  amp: '&',
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  num: '#',
  percnt: '%',
  excl: '!',
  quest: '?',
  equals: '=',
  plus: '+',
  comma: ',',
  semi: ';',
};
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi;
const ALLOWED_PROTOCOLS = new Set<string>(ALLOWED_LINK_PROTOCOLS);

function decodeEntities(value: string): string {
  return value.replace(ENTITY, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * True when a link may point there: an allowed scheme (http, https, ftp, ftps, mailto, tel, callto,
 * sms, cid, xmpp) or a relative reference (`/x`, `#a`, `?q`, `page.html`, `//host/x`). The scheme is read the
 * way a browser would after HTML-entity decoding and removal of whitespace and control characters, so
 * `JaVaScRiPt:`, ` javascript:`, `java\nscript:` and `javascript&colon;` are all refused. The empty string is
 * safe (it links nowhere).
 */
export function isSafeHref(href: string): boolean {
  if (href.length > MAX_HREF_LENGTH) return false;
  let value = href;
  // Entities can be nested (`&amp;colon;`); a few rounds settle every realistic case.
  for (let round = 0; round < 3 && value.includes('&'); round++) {
    const decoded = decodeEntities(value);
    if (decoded === value) break;
    value = decoded;
  }
  value = value.replace(URL_IGNORED_CHARS, '');
  const scheme = SCHEME.exec(value);
  if (!scheme) return true; // relative reference
  return ALLOWED_PROTOCOLS.has(scheme[1]!.toLowerCase());
}

/** The href itself when safe (trimmed), otherwise '': an unsafe link keeps its text but loses its target. */
export function sanitizeHref(href: unknown): string {
  if (typeof href !== 'string') return '';
  return isSafeHref(href) ? href.trim() : '';
}
