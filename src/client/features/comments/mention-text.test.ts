import { describe, expect, it } from 'vitest';
import { mentionsAsText } from '@shared/mentions';
import { bodyForEditing, bodyForSending, insertMention, matchPeople, mentionQuery } from './mention-text';

const ANN = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ANN_LEE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

describe('mentions while writing', () => {
  it('finds the @ being typed before the caret, not one inside a word or an address', () => {
    expect(mentionQuery('Hi @an', 6)).toEqual({ start: 3, query: 'an' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('mail ann@example.com', 20)).toBeNull();
    expect(mentionQuery('Hi @an and more', 15)).toBeNull();
  });

  it('sends each picked @Name as a mention, the longer name first, and round-trips for editing', () => {
    const picked = [
      { id: ANN, name: 'Ann' },
      { id: ANN_LEE, name: 'Ann Lee' },
    ];
    const sent = bodyForSending('@Ann Lee and @Ann, not @Annabel or @Bob', picked);
    expect(sent).toBe(`<@${ANN_LEE}> and <@${ANN}>, not @Annabel or @Bob`);
    expect(bodyForEditing(sent, picked)).toBe('@Ann Lee and @Ann, not @Annabel or @Bob');
    expect(mentionsAsText(sent, [picked[0]!])).toBe('@someone and @Ann, not @Annabel or @Bob');
    // A picked person whose name was deleted is not mentioned.
    expect(bodyForSending('Nobody here', picked)).toBe('Nobody here');
  });

  it('matches names by any word and addresses, best first', () => {
    const people = [
      { id: '1', name: 'Edith Editor', email: 'edith@example.com' },
      { id: '2', name: 'Olive Owner', email: 'olive@example.com' },
      { id: '3', name: 'Cora Commenter', email: 'cora@olive.test' },
    ];
    expect(matchPeople(people, 'o').map((p) => p.id)).toEqual(['2', '3', '1']);
    expect(matchPeople(people, 'ed').map((p) => p.id)).toEqual(['1']);
    expect(matchPeople(people, 'xyz')).toEqual([]);
    expect(matchPeople(people, '').map((p) => p.id)).toEqual(['3', '1', '2']);
  });

  it('replaces the query with the name and puts the caret after it', () => {
    expect(insertMention('Hi @ed, look', { start: 3, query: 'ed' }, { name: 'Edith Editor' })).toEqual({
      text: 'Hi @Edith Editor , look',
      caret: 17,
    });
  });
});
