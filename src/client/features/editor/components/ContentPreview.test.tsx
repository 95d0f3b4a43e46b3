import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { RichTextDoc } from '@shared/schemas/richText';
import { ContentPreview } from './ContentPreview';

afterEach(cleanup);

function book(paragraphs: number): RichTextDoc {
  return {
    type: 'doc',
    content: Array.from({ length: paragraphs }, (_, i) => ({
      type: 'paragraph',
      content: [{ type: 'text', text: `Paragraph ${i + 1}.` }],
    })),
  };
}

it('shows the first screens of a long document at once and the whole of it soon after', async () => {
  render(<ContentPreview content={book(700)} />);
  const preview = screen.getByTestId('content-preview');
  expect(preview.children.length).toBeGreaterThanOrEqual(20);
  expect(preview.children.length).toBeLessThan(700);
  expect(preview.textContent).toContain('Paragraph 1.');
  await waitFor(() => expect(preview.children).toHaveLength(700), { timeout: 5_000 });
  expect(preview.lastElementChild?.textContent).toBe('Paragraph 700.');
});

it('renders a short document whole, with its formatting', () => {
  render(
    <ContentPreview
      content={{
        type: 'doc',
        content: [
          { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Spring' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'Bold', marks: [{ type: 'bold' }] }] },
        ],
      }}
    />,
  );
  const preview = screen.getByTestId('content-preview');
  expect(preview.innerHTML).toBe('<h2>Spring</h2><p><strong>Bold</strong></p>');
});
