import { describe, expect, it } from 'vitest';
import { groupInlines } from './pdf-lines';

const regular = { ascender: 900 };
const italic = { ascender: 900 };

function line(inlines: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  let x = 0;
  return {
    inlines: inlines.map((inline) => {
      const text = String(inline.text);
      const placed = { font: regular, fontSize: 11, color: 'black', x, width: text.length * 5, ...inline };
      x += placed.width;
      return placed as never;
    }),
    getHeight: () => 15,
    getAscenderHeight: () => 11,
    ...extra,
  };
}

const texts = (groups: { text: string }[][] | null) =>
  groups?.map((group) => group.map((inline) => inline.text).join('|'));

describe('grouping a line’s words for drawing', () => {
  it('draws each run of words in one style together', () => {
    const groups = groupInlines(
      line([
        { text: 'The ' },
        { text: 'river ' },
        { text: 'rose ', font: italic },
        { text: 'over', font: italic },
        { text: 'night ' },
        { text: 'slowly.' },
      ]),
    );
    // A word cut by a change of style ("over|night") ends its run; a run's words end in one space.
    expect(texts(groups)).toEqual(['The |river ', 'rose |over', 'night |slowly.']);
  });

  it('ends a run at a hyphen break, two spaces or a change of size or colour', () => {
    expect(
      texts(
        groupInlines(
          line([
            { text: 'well-' },
            { text: 'known ' },
            { text: 'a  ' },
            { text: 'b ' },
            { text: 'c ', fontSize: 9 },
            { text: 'd ', color: 'red' },
            { text: 'e' },
          ]),
        ),
      ),
    ).toEqual(['well-', 'known ', 'a  ', 'b ', 'c ', 'd ', 'e']);
  });

  it('leaves to pdfmake a line with a link, a superscript, a decoration or a destination', () => {
    for (const special of [
      { link: 'https://example.com' },
      { sup: true },
      { decoration: 'underline' },
      { background: '#fff3a3' },
      { linkToDestination: 'note-0-1' },
    ])
      expect(groupInlines(line([{ text: 'a ' }, { text: 'b', ...special }]))).toBeNull();
    expect(groupInlines(line([{ text: 'a ' }, { text: 'b' }], { id: 'note-0-1' }))).toBeNull();
  });
});
