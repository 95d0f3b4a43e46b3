/**
 * The one pattern for ids in addresses and bodies (documents, versions, providers): a UUID in its usual
 * text form, either case. Anything else names nothing, so callers answer it like a missing row (404) or a
 * 400, never with a database error about a malformed uuid.
 */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, 'i');

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
