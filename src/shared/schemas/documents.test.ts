import { describe, expect, it } from 'vitest';
import { createDocumentBodySchema, updateDocumentBodySchema } from './documents';

describe('document title', () => {
  it('stores a blank or whitespace title as "Untitled Document"', () => {
    expect(updateDocumentBodySchema.parse({ title: '' }).title).toBe('Untitled Document');
    expect(updateDocumentBodySchema.parse({ title: '   ' }).title).toBe('Untitled Document');
    expect(createDocumentBodySchema.parse({ title: '\t' }).title).toBe('Untitled Document');
  });

  it('keeps a real title, trimmed', () => {
    expect(updateDocumentBodySchema.parse({ title: '  Field notes ' }).title).toBe('Field notes');
  });

  it('leaves an absent title absent (a content-only change keeps the stored title)', () => {
    expect(updateDocumentBodySchema.parse({ content: { type: 'doc', content: [] } }).title).toBeUndefined();
  });
});
