import { mentionToken, replaceMentions, type Mention } from '@shared/mentions';

/**
 * Mentions while a comment is written: the box shows `@Name`, and the people picked from the suggestions are
 * remembered, so that sending turns each `@Name` of a picked person into the stored `<@id>` (shared/mentions.ts).
 */

/** A stored body as the box shows it, and the people it mentions (editing a comment). */
export function bodyForEditing(body: string, mentions: readonly Mention[]): string {
  const names = new Map(mentions.map((mention) => [mention.id.toLowerCase(), mention.name]));
  return replaceMentions(body, (id) => `@${names.get(id) ?? 'someone'}`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The body to send: each `@Name` of a picked person (longest names first, so "@Ann Lee" is not taken for "@Ann")
 * becomes their token; a picked person whose `@Name` was deleted is not mentioned.
 */
export function bodyForSending(text: string, picked: readonly Mention[]): string {
  const people = [...new Map(picked.map((person) => [person.id, person])).values()].sort(
    (a, b) => b.name.length - a.name.length,
  );
  if (people.length === 0) return text;
  const pattern = new RegExp(
    `@(${people.map((person) => escapeRegExp(person.name)).join('|')})(?![\\p{L}\\p{N}])`,
    'gu',
  );
  const byName = new Map(people.map((person) => [person.name, person.id]));
  return text.replace(pattern, (_match, name: string) => mentionToken(byName.get(name)!));
}

/** The `@` being typed just before the caret: where it starts and what follows it, or null. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]{0,40})$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

export interface MentionCandidate {
  id: string;
  name: string;
  email: string;
}

/** The people whose name (any word of it) or address starts with the query, best first. */
export function matchPeople(
  people: readonly MentionCandidate[],
  query: string,
  limit = 8,
): MentionCandidate[] {
  const q = query.toLowerCase();
  const score = (person: MentionCandidate) => {
    const name = person.name.toLowerCase();
    if (name.startsWith(q)) return 0;
    if (name.split(/\s+/).some((word) => word.startsWith(q))) return 1;
    if (person.email.toLowerCase().startsWith(q)) return 2;
    if (name.includes(q) || person.email.toLowerCase().includes(q)) return 3;
    return -1;
  };
  return people
    .map((person) => ({ person, rank: score(person) }))
    .filter(({ rank }) => rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.person.name.localeCompare(b.person.name))
    .slice(0, limit)
    .map(({ person }) => person);
}

/** The text with the query replaced by `@Name ` and where the caret goes after it. */
export function insertMention(
  text: string,
  at: { start: number; query: string },
  person: { name: string },
): { text: string; caret: number } {
  const inserted = `@${person.name} `;
  const end = at.start + 1 + at.query.length;
  return { text: text.slice(0, at.start) + inserted + text.slice(end), caret: at.start + inserted.length };
}
