import { generateHTML, generateJSON } from '@tiptap/html/server';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { createEditorExtensions, createRenderExtensions } from '@shared/editor/extensions';
import { filterStyle, sanitizeHtmlOptions } from '@shared/editor/html-policy';
import { EVERY_NODE_DOCUMENT, FOOTNOTES_DOCUMENT, TABLES_AND_TASKS_DOCUMENT } from '@shared/export/fixture';
import { sanitizeRenderedHtml as browserSanitize } from './sanitize-html';

// The browser's sanitizer (DOMPurify, on this test environment's DOM) against the server's (sanitize-html),
// both configured from the one policy in src/shared/editor/html-policy.ts.
const serverOptions = sanitizeHtmlOptions();
const serverSanitize = (html: string) => sanitizeHtml(html, serverOptions);

/** A serialization that ignores what does not change meaning: attribute order and spacing inside `style`. */
function canonical(html: string): string {
  const container = document.createElement('div');
  container.innerHTML = html;
  const walk = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE)
      return (node.textContent ?? '').replace(/[<&]/g, (c) => `&#${c.charCodeAt(0)};`);
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const element = node as Element;
    const attributes = [...element.attributes]
      .map(({ name, value }) => [
        name,
        name === 'style' ? value.replace(/\s*([:;])\s*/g, '$1').replace(/;$/, '') : value,
      ])
      .sort(([a], [b]) => a!.localeCompare(b!))
      .map(([name, value]) => ` ${name}="${value}"`)
      .join('');
    const tag = element.tagName.toLowerCase();
    return `<${tag}${attributes}>${Array.from(element.childNodes, walk).join('')}</${tag}>`;
  };
  return Array.from(container.childNodes, walk).join('');
}

const suggestion =
  'data-suggestion-id="sg_1" data-author-id="u1" data-author-name="Ada" data-source="ai" data-created-at="2026-11-23T12:00:00Z"';

const HOSTILE: Record<string, string> = {
  script: '<p>hi<script>alert(1)</script></p>',
  'event handler': '<p onclick="alert(1)">click</p><img src=x onerror=alert(1)>',
  'javascript link': '<a href="javascript:alert(1)">x</a><a href=" java\tscript:alert(1)">y</a>',
  'entity-encoded javascript link': '<a href="&#106;avascript:alert(1)">x</a>',
  'data link': '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  'safe links':
    '<a href="https://example.com/a?b=c" rel="opener" target="_self">ok</a><a href="mailto:a@example.com">m</a>',
  'style injection':
    '<span style="color: red; background: url(javascript:alert(1)); position: fixed">x</span>',
  'expression in font': '<span style="font-family: expression(alert(1)); font-size: 9999px">x</span>',
  'allowed styles':
    '<p style="text-align: center"><span style="color: #ef4444; font-size: 20px; font-family: Georgia">x</span></p>',
  'unknown elements':
    '<iframe src="https://evil.example"></iframe><form><input value="x"></form><svg><script>1</script></svg><h4>deep</h4>',
  'forged classes and data': '<code class="language-js evil">x</code><p class="x" data-x="1">y</p>',
  suggestions: `<p><ins class="tracked-change tracked-insertion" style="--suggestion-hue: 120" ${suggestion}>new</ins><del class="tracked-change tracked-deletion" style="--suggestion-hue: 120; background: red" ${suggestion} onmouseover="x()">old</del></p>`,
  'style element': '<style>body{display:none}</style><p>text</p>',
  'nested list with start': '<ol start="3" type="a"><li><p>x</p></li></ol><ul><li>y</li></ul>',
  'hostile table':
    '<table onclick="alert(1)" style="width: 300px; position: absolute; background: url(javascript:1)"><colgroup><col style="width: expression(1)"></colgroup><tbody><tr><th colspan="2" rowspan="javascript:1" onmouseover="x()" style="text-align: center">h</th><td colwidth="90" data-x="1">c</td></tr></tbody></table>',
  'hostile task list':
    '<ul data-type="evil"><li data-type="taskItem" data-checked="maybe" onclick="x()"><label><input type="text" value="1" onchange="x()" checked><span></span></label><div><p>t</p></div></li></ul>',
  'hostile images':
    '<img src="https://tracker.example/p.gif" alt="a"><img src="data:image/svg+xml,<svg onload=alert(1)>"><img src="javascript:alert(1)" srcset="https://x.example/1.png 2x" style="width: 1px" data-width="33" data-align="top" onload="x()">',
  'uploaded image':
    '<img src="/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c" alt="A cat" title="Cat" data-width="50" data-align="left">',
  'captioned image':
    '<figure class="x" style="position: fixed" onclick="x()"><img src="/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c" alt="A cat" title="On the wall" data-width="75" data-align="right"><figcaption onmouseover="x()">On the wall</figcaption></figure>',
  'hostile footnotes':
    '<p>x<sup class="footnote-ref evil" data-footnote-ref="<b>" onclick="x()"><a href="#fn1" id="main" target="_self">1</a></sup></p><section class="footnotes other" data-footnotes="1" style="position: fixed"><ol><li id="fn1" data-footnote="ok_1"><div class="footnote-body x"><p>n</p></div><a href="#fnref1" class="footnote-backref" aria-label="Click me" id="fnref1">↩</a></li></ol></section>',
  'comment anchors':
    '<p><span class="comment-anchor" data-comment-thread="9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c">kept</span><span class="comment-anchor evil" data-comment-thread="javascript:alert(1)" onclick="x()">forged</span></p>',
  'hostile highlight':
    '<mark data-color="url(x)" style="background-color: red; color: inherit">m</mark><mark data-color="#fef08a" style="background-color: #fef08a">ok</mark><sub onclick="x()">2</sub><sup>3</sup>',
};

describe('the rendered-HTML policy', () => {
  it.each(Object.entries(HOSTILE))('sanitize-html and DOMPurify agree: %s', (_name, html) => {
    const server = serverSanitize(html);
    const browser = browserSanitize(html);
    expect(canonical(browser)).toBe(canonical(server));
    expect(server).not.toMatch(
      /script|onerror|onclick|onmouseover|javascript|iframe|url\(|expression|position|data-x/i,
    );
  });

  it("keeps a comment thread's anchor with its id, and drops a forged id", () => {
    const threadId = '9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c';
    const html = generateHTML(
      {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [{ type: 'text', text: 'noted', marks: [{ type: 'comment', attrs: { threadId } }] }],
          },
        ],
      },
      createEditorExtensions({ history: false }),
    );
    for (const sanitize of [serverSanitize, browserSanitize]) {
      expect(sanitize(html)).toContain(`data-comment-thread="${threadId}"`);
      expect(sanitize(html)).toContain('class="comment-anchor"');
      const forged = sanitize(HOSTILE['comment anchors']!);
      expect(forged).not.toContain('javascript');
      expect(forged).not.toContain('evil');
    }
  });

  it('drops an image whose address is refused, element and all, and keeps an uploaded one', () => {
    for (const sanitize of [serverSanitize, browserSanitize]) {
      expect(sanitize(HOSTILE['hostile images']!)).not.toContain('<img');
      expect(sanitize(HOSTILE['uploaded image']!)).toContain('alt="A cat"');
    }
  });

  it('keeps everything the editor renders, and every link opens in a new tab with the safe rel', () => {
    const html = generateHTML(EVERY_NODE_DOCUMENT, createEditorExtensions({ history: false }));
    const server = serverSanitize(html);
    expect(canonical(browserSanitize(html))).toBe(canonical(server));
    for (const kept of [
      'text-align',
      'font-family',
      'color',
      'start="3"',
      'language-js',
      '<hr',
      '<s>',
      '<u>',
    ]) {
      expect(server).toContain(kept);
    }
    expect(server).toContain('target="_blank"');
    expect(server).toContain('rel="noopener noreferrer nofollow"');
  });

  it('keeps numbered footnotes and their back-links; in-page footnote links open no new tab', () => {
    const html = generateHTML(FOOTNOTES_DOCUMENT, createRenderExtensions(FOOTNOTES_DOCUMENT));
    const server = serverSanitize(html);
    expect(canonical(browserSanitize(html))).toBe(canonical(server));
    expect(canonical(server)).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">1</a></sup>');
    expect(canonical(server)).toContain('<section class="footnotes" data-footnotes=""><ol><li id="fn1">');
    expect(canonical(server)).toContain(
      '<a aria-label="Back to the text" class="footnote-backref" href="#fnref2">↩</a>',
    );
  });

  it('keeps tables, task lists, highlight and sub/superscript, with every checkbox disabled', () => {
    const html = generateHTML(TABLES_AND_TASKS_DOCUMENT, createEditorExtensions({ history: false }));
    const server = serverSanitize(html);
    expect(canonical(browserSanitize(html))).toBe(canonical(server));
    for (const kept of [
      'colwidth="160"',
      'rowspan="2"',
      'colspan="2"',
      '<col style="width:160px',
      'data-type="taskList"',
      'data-checked="true"',
      '<mark>',
      'data-color="#bbf7d0"',
      '<sub>2</sub>',
      '<sup>2</sup>',
    ]) {
      expect(server).toContain(kept);
    }
    const boxes = server.match(/<input[^>]*>/g) ?? [];
    expect(boxes).toHaveLength(4);
    for (const box of boxes) expect(box).toMatch(/type="checkbox".*disabled/);
  });

  it('renders a captioned image as a figure with its caption, which both sanitizers keep and which parses back', () => {
    const extensions = createEditorExtensions({ history: false });
    const src =
      '/api/documents/2f0c6a43-5a8b-4a52-9d43-6d3c0a5f3e11/images/9b7e2c1d-4f3a-4b6e-8a1c-2d3e4f5a6b7c';
    const image = { src, alt: 'A cat', title: 'On the wall, 1998', width: 50, align: 'left' };
    const captioned = generateHTML({ type: 'doc', content: [{ type: 'image', attrs: image }] }, extensions);
    expect(captioned).toMatch(/^<figure><img [^>]*><figcaption>On the wall, 1998<\/figcaption><\/figure>$/);
    for (const sanitize of [serverSanitize, browserSanitize]) {
      expect(canonical(sanitize(captioned))).toBe(canonical(captioned));
    }
    expect(generateJSON(captioned, extensions).content).toEqual([{ type: 'image', attrs: image }]);
    // Without a caption: the <img> alone, as before.
    const plain = generateHTML(
      { type: 'doc', content: [{ type: 'image', attrs: { ...image, title: null } }] },
      extensions,
    );
    expect(plain).toMatch(/^<img [^>]*>$/);
    expect(generateJSON(plain, extensions).content).toEqual([
      { type: 'image', attrs: { ...image, title: null } },
    ]);
  });

  it('filters style declarations by property and value', () => {
    expect(filterStyle('COLOR: #fff; background: red; font-size: 16px; --suggestion-hue: 12')).toBe(
      'color: #fff; font-size: 16px; --suggestion-hue: 12',
    );
    expect(filterStyle('color: url(x)')).toBe('');
  });
});
