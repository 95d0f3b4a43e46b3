import type { RichTextDoc, RichTextMark, RichTextNode } from '../schemas/richText';

/**
 * The built-in templates: rich-text trees for the editor's schema (a test runs each through the content
 * validator). `{{title}}` and `{{date}}` are filled when a document is made from one (variables.ts).
 */

export interface BuiltInTemplate {
  /** Stable slug: the id the API and the client use. */
  id: string;
  name: string;
  description: string;
  title: string;
  content: RichTextDoc;
}

type Inline = string | RichTextNode;

const mark =
  (type: string) =>
  (text: string): RichTextNode => ({
    type: 'text',
    text,
    marks: [{ type } satisfies RichTextMark],
  });
const bold = mark('bold');
const italic = mark('italic');

const inline = (parts: Inline[]): RichTextNode[] =>
  parts.map((part) => (typeof part === 'string' ? { type: 'text', text: part } : part));
const p = (...parts: Inline[]): RichTextNode =>
  parts.length === 0 ? { type: 'paragraph' } : { type: 'paragraph', content: inline(parts) };
const h = (level: 1 | 2 | 3, text: string): RichTextNode => ({
  type: 'heading',
  attrs: { level },
  content: [{ type: 'text', text }],
});
const item = (...parts: Inline[]): RichTextNode => ({ type: 'listItem', content: [p(...parts)] });
const ul = (...items: Inline[][]): RichTextNode => ({
  type: 'bulletList',
  content: items.map((parts) => item(...parts)),
});
const ol = (...items: Inline[][]): RichTextNode => ({
  type: 'orderedList',
  attrs: { start: 1 },
  content: items.map((parts) => item(...parts)),
});
const quote = (...parts: Inline[]): RichTextNode => ({ type: 'blockquote', content: [p(...parts)] });
const rule: RichTextNode = { type: 'horizontalRule' };
const doc = (...content: RichTextNode[]): RichTextDoc => ({ type: 'doc', content });

const blogPost: BuiltInTemplate = {
  id: 'blog-post',
  name: 'Blog post',
  description: 'A hook, three points that earn their place, and a close that asks the reader to act.',
  title: '{{title}}',
  content: doc(
    p(italic('Published {{date}} · 6 minute read')),
    p(
      bold('The hook. '),
      'Open with the moment your reader recognises: the problem they had this morning, the question they typed into a search box, the sentence they have heard one time too many. One short paragraph; no throat-clearing.',
    ),
    p(
      'Then say, in a sentence, what this post will give them. ',
      italic('By the end, you will know how to …'),
      ' is plain, and plain works.',
    ),
    h(2, 'Why this matters now'),
    p(
      'Give the context a newcomer needs and nothing more: what changed, who it affects, and what it costs to ignore it. A number or a short story does more here than a paragraph of adjectives.',
    ),
    h(2, 'The first idea'),
    p(
      'State the idea in the first sentence of the section, then prove it. Use one concrete example: a screenshot described in words, a customer quote, a before and after.',
    ),
    ul(['What the reader should do'], ['What happens when they do'], ['The mistake most people make here']),
    h(2, 'The second idea'),
    p(
      'Build on the first. If a reader skims only your headings, they should still walk away with the argument.',
    ),
    quote(
      '“A pull quote gives a skimming reader somewhere to stop.” Use a line from your own text or from someone you interviewed.',
    ),
    h(2, 'The third idea'),
    p('Keep it to three. A fourth point usually belongs in its own post.'),
    h(2, 'What to do next'),
    p(
      'Close by handing the reader one next step: try the technique today, read the follow-up, reply with their own experience. Thank them for reading.',
    ),
    rule,
    p(
      italic(
        'Before publishing: read it aloud, cut the first paragraph if the second is stronger, check every link.',
      ),
    ),
  ),
};

const novelChapter: BuiltInTemplate = {
  id: 'novel-chapter',
  name: 'Novel chapter',
  description: 'A chapter with its scene outline above the draft: goal, conflict and turn for every scene.',
  title: '{{title}}',
  content: doc(
    p(italic('Draft begun {{date}}')),
    h(2, 'Scene outline'),
    p(
      'Plan before you draft. Each scene needs a point-of-view character who wants something, something in the way, and a turn that leaves things different from how they began.',
    ),
    ol(
      [
        bold('Opening image. '),
        'Where are we, whose eyes are we behind, and what do they want in this moment? Ground the reader in one vivid, specific detail.',
      ],
      [
        bold('Complication. '),
        'Something refuses them: a person, a lie, the weather, their own fear. Raise the stakes by making failure cost something the reader cares about.',
      ],
      [
        bold('Turn. '),
        'A decision, a discovery or a reversal. The character leaves the scene knowing or wanting something new.',
      ],
      [bold('Hook. '), 'End on an open question that pulls the reader into the next chapter.'],
    ),
    h(3, 'Notes for this chapter'),
    ul(
      [bold('Point of view: '), 'who, and how close'],
      [bold('Timeline: '), 'how much time has passed since the last chapter'],
      [bold('Threads: '), 'which subplot moves forward here'],
    ),
    rule,
    h(2, 'Draft'),
    p(
      'The rain had not stopped for three days, and Mara had stopped pretending she did not mind. She stood at the window of the ferry office with the letter folded small in her fist, watching the last boat of the afternoon slide out of the harbour without her.',
    ),
    p('Write the scene from here. Do not edit while you draft; the outline above will keep you honest.'),
  ),
};

const meetingNotes: BuiltInTemplate = {
  id: 'meeting-notes',
  name: 'Meeting notes',
  description: 'Attendees, agenda, decisions and action items with owners, so nothing agreed gets lost.',
  title: 'Meeting notes: {{date}}',
  content: doc(
    p(bold('Topic: '), '{{title}}'),
    p(bold('Date: '), '{{date}}'),
    p(bold('Attendees: '), 'names, and who is taking notes'),
    p(bold('Goal of the meeting: '), 'the one outcome that would make this time well spent'),
    h(2, 'Agenda'),
    ol(
      ['Review of last meeting’s action items (5 min)'],
      ['Main topic and the decision it needs (20 min)'],
      ['Open questions and risks (10 min)'],
      ['Next steps and owners (5 min)'],
    ),
    h(2, 'Discussion'),
    p(
      'Summarise what was said, not who said it. Record the options that were weighed and why the group leaned one way.',
    ),
    h(2, 'Decisions'),
    ul(['Decision, and the reason for it'], ['What was explicitly decided against']),
    h(2, 'Action items'),
    ul([bold('Owner'), ': what they will do, by when'], [bold('Owner'), ': what they will do, by when']),
    h(2, 'Parking lot'),
    p('Topics raised that deserve their own meeting.'),
  ),
};

const coverLetter: BuiltInTemplate = {
  id: 'cover-letter',
  name: 'Cover letter',
  description: 'A one-page letter that leads with what you will do for the team, backed by proof.',
  title: 'Cover letter: {{title}}',
  content: doc(
    p('Your Name'),
    p('your.email@example.com · +1 555 0100 · City, Country'),
    p('{{date}}'),
    p('Hiring Manager', { type: 'hardBreak' }, 'Company Name', { type: 'hardBreak' }, 'Street, City'),
    p('Dear Hiring Manager,'),
    p(
      'I am writing to apply for the role of ',
      bold('{{title}}'),
      '. In my current role I have led work that is close to what your team describes: name the result in one line, with a number if you have one, such as cutting onboarding time from three weeks to one.',
    ),
    p(
      'What draws me to your company is specific: a product you use, a talk someone on the team gave, a problem you are solving that you care about. Show that you have done your reading.',
    ),
    p('In my first months with you I would bring:'),
    ul(
      [bold('A skill that matches the posting, '), 'with the proof: where you used it and what changed'],
      [bold('A second strength, '), 'ideally one the posting hints at but does not spell out'],
      [bold('How you work with others, '), 'shown by an example rather than adjectives'],
    ),
    p(
      'I would welcome the chance to talk about how I could help the team. Thank you for your time and consideration.',
    ),
    p('Sincerely,'),
    p('Your Name'),
  ),
};

const shortStory: BuiltInTemplate = {
  id: 'short-story',
  name: 'Short-story manuscript',
  description:
    'A submission-ready manuscript: contact block, word count, byline, scene breaks and an end mark.',
  title: '{{title}}',
  content: doc(
    p('Your Legal Name', { type: 'hardBreak' }, 'Street Address', { type: 'hardBreak' }, 'City, Postcode'),
    p('your.email@example.com'),
    p({ type: 'text', text: 'About 4,000 words', marks: [{ type: 'italic' }] }),
    {
      type: 'heading',
      attrs: { level: 1, textAlign: 'center' },
      content: [{ type: 'text', text: '{{title}}' }],
    },
    {
      type: 'paragraph',
      attrs: { textAlign: 'center' },
      content: [{ type: 'text', text: 'by Your Pen Name' }],
    },
    p(
      'The morning the lighthouse went dark, Ilse was the only one in the village who noticed. She had counted its sweep every night for eleven years, four seconds of light and six of dark, the way other people counted sheep.',
    ),
    p(
      'Begin in motion. A short story has no room for a slow opening; by the end of the first page the reader should know whose story it is and what is about to go wrong.',
    ),
    { type: 'paragraph', attrs: { textAlign: 'center' }, content: [{ type: 'text', text: '#' }] },
    p(
      'A centred hash marks a scene break. Use one when time jumps or the point of view changes; editors look for it so the break survives typesetting.',
    ),
    p('Draft started {{date}}.'),
    { type: 'paragraph', attrs: { textAlign: 'center' }, content: [{ type: 'text', text: 'THE END' }] },
  ),
};

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  blogPost,
  novelChapter,
  meetingNotes,
  coverLetter,
  shortStory,
];

export function findBuiltInTemplate(id: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((template) => template.id === id);
}
