import { describe, expect, it } from 'vitest';
import { renderChatMarkdown } from './markdown';

describe('chat answers as HTML', () => {
  it('renders Markdown: bold, lists, code, links that open safely', () => {
    const html = renderChatMarkdown(
      'The **weakest** point:\n\n- one\n- two\n\n`code` and [site](https://example.com)',
    );
    expect(html).toContain('<strong>weakest</strong>');
    expect(html).toMatch(/<ul>\s*<li>one<\/li>/);
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it('removes what a hostile answer could run: scripts, handlers, javascript: and data: links, images', () => {
    const html = renderChatMarkdown(
      [
        '[click](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>)',
        '<script>alert(2)</script><img src=x onerror="alert(3)">',
        '<a href="JaVaScRiPt:alert(4)" onclick="alert(5)">raw</a>',
        '<iframe src="https://example.com"></iframe><style>body{display:none}</style>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|<img|<iframe|<style|onerror|onclick|javascript:|data:text/i);
    expect(html).toContain('click');
    expect(html).toContain('raw');
  });

  it("shows no image, not even one at this server's image address", () => {
    const html = renderChatMarkdown(
      '![a](/api/documents/00000000-0000-4000-8000-000000000000/images/00000000-0000-4000-8000-000000000001) text',
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('text');
  });
});
