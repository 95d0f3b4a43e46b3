/**
 * Mentions in comments (docs/comments.md): the body holds `<@user id>` where a person is mentioned, and the
 * comment carries the people it mentions with their names, so a mention reads `@Name`. Zod-free: the browser's
 * composer and the server's validation both use it.
 */

export interface Mention {
  id: string;
  name: string;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** One mention in a comment's body. */
const MENTION_TOKEN = new RegExp(`<@(${UUID})>`, 'gi');

/** The token a mention of `userId` is stored as. */
export const mentionToken = (userId: string) => `<@${userId.toLowerCase()}>`;

/** The ids a body mentions, each once, in order of first appearance (lower case). */
export function mentionedIds(body: string): string[] {
  const ids = new Set<string>();
  for (const match of body.matchAll(MENTION_TOKEN)) ids.add(match[1]!.toLowerCase());
  return [...ids];
}

/** Rewrites each token: `replace(id)` gives the text that stands in its place. */
export function replaceMentions(body: string, replace: (id: string) => string): string {
  return body.replace(MENTION_TOKEN, (_token, id: string) => replace(id.toLowerCase()));
}

/** A body as text to read: each mention as `@Name` (`@someone` for a token without its person). */
export function mentionsAsText(body: string, mentions: readonly Mention[]): string {
  const names = new Map(mentions.map((mention) => [mention.id.toLowerCase(), mention.name]));
  return replaceMentions(body, (id) => `@${names.get(id) ?? 'someone'}`);
}

export type BodyPart = { text: string } | { mention: Mention };

/** A body split into text and mentions, for showing the mentions apart. */
export function bodyParts(body: string, mentions: readonly Mention[]): BodyPart[] {
  const names = new Map(mentions.map((mention) => [mention.id.toLowerCase(), mention]));
  const parts: BodyPart[] = [];
  let last = 0;
  for (const match of body.matchAll(MENTION_TOKEN)) {
    const index = match.index;
    if (index > last) parts.push({ text: body.slice(last, index) });
    const mention = names.get(match[1]!.toLowerCase());
    parts.push(mention ? { mention } : { text: '@someone' });
    last = index + match[0].length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  return parts;
}
