/**
 * SPEC §5: an href is kept only when it is relative or its scheme is on the whitelist. One implementation for
 * the editor (rendering, parsing, setLink, autolink), the server's content normalization and the API's
 * rich-text validation: the shared schema's isSafeHref, which also sees through entity-encoded and
 * whitespace-split schemes.
 */
export { isSafeHref as isAllowedHref } from '../schemas/richText';
