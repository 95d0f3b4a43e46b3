import { describe, expect, it } from 'vitest';
import { validateRichText } from '../editor/validate';
import { BUILT_IN_TEMPLATES } from './builtin';
import { fillDocument, fillText, readableDate } from './variables';

describe('built-in templates', () => {
  it.each(BUILT_IN_TEMPLATES.map((t) => [t.id, t] as const))(
    '%s passes the content validator unchanged, before and after its variables are filled',
    (_id, template) => {
      expect(validateRichText(template.content)).toEqual(template.content);
      const filled = fillDocument(template.content, { date: 'November 28, 2026', title: 'A title' });
      expect(validateRichText(filled)).toEqual(filled);
      expect(JSON.stringify(filled)).not.toMatch(/\{\{\s*(date|title)\s*\}\}/);
    },
  );

  it('have distinct ids and real text', () => {
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.id)).size).toBe(BUILT_IN_TEMPLATES.length);
    for (const template of BUILT_IN_TEMPLATES) {
      expect(JSON.stringify(template.content).length).toBeGreaterThan(800);
    }
  });
});

describe('template variables', () => {
  it('fill {{date}} and {{title}}, with or without spaces, and leave other braces alone', () => {
    const vars = { date: 'March 3, 2027', title: 'Harbour' };
    expect(fillText('{{title}} on {{ date }}, {{other}}', vars)).toBe('Harbour on March 3, 2027, {{other}}');
  });

  it('show a local date readably', () => {
    expect(readableDate('2026-11-28')).toBe('November 28, 2026');
    expect(readableDate('2027-01-05')).toBe('January 5, 2027');
  });

  it('drop a text node left empty and keep marks', () => {
    const filled = fillDocument(
      {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: '{{title}}', marks: [{ type: 'bold' }] },
              { type: 'text', text: ' after' },
            ],
          },
        ],
      },
      { date: 'x', title: '' },
    );
    expect(filled.content[0]!.content).toEqual([{ type: 'text', text: ' after' }]);
  });
});
