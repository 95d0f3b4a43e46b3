import { MarkdownManager } from '@tiptap/markdown';
import escapeHtml from 'escape-html';
import { createEditorExtensions } from '../editor/extensions';
import type { RichTextDoc } from '../schemas/richText';
import { documentToMarkdownBody } from './markdown';
import { renderPlainText } from './plain-text';
import { markdownTitle, titleAsPlainLine } from './title';

const extensions = createEditorExtensions({ history: false });
let markdown: MarkdownManager | undefined;

function markdownManager(): MarkdownManager {
  markdown ??= new MarkdownManager({ extensions });
  return markdown;
}

export function documentToMarkdown(title: string, doc: RichTextDoc): string {
  const body = documentToMarkdownBody(doc);
  return `# ${markdownTitle(title)}\n\n${body}\n`;
}

export function markdownToDocument(source: string): RichTextDoc {
  return markdownManager().parse(source) as RichTextDoc;
}

/** Plain text: the title, a blank line, then the body (plain-text.ts: list markers kept, no padding). */
export function documentToText(title: string, doc: RichTextDoc): string {
  return `${titleAsPlainLine(title)}\n\n${renderPlainText(doc).trimEnd()}\n`;
}

const STANDALONE_STYLES = `
  body { font-family: Inter, system-ui, -apple-system, 'Segoe UI', sans-serif; max-width: 46rem; margin: 3rem auto;
    padding: 0 1.25rem; line-height: 1.65; color: #1f2937; background: #fff; }
  h1, h2, h3 { line-height: 1.25; margin: 1.6em 0 0.6em; }
  blockquote { border-left: 3px solid #d1d5db; margin: 1em 0; padding: 0.1em 1em; color: #4b5563; }
  pre { background: #f3f4f6; padding: 0.9em 1.1em; border-radius: 6px; overflow-x: auto; }
  code { font-family: 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 0.92em; }
  :not(pre) > code { background: #f3f4f6; padding: 0.1em 0.3em; border-radius: 4px; }
  hr { border: 0; border-top: 1px solid #e5e7eb; margin: 2em 0; }
  a { color: #4f46e5; }
  sup.footnote-ref a { text-decoration: none; padding: 0 0.1em; }
  section.footnotes { border-top: 1px solid #e5e7eb; margin-top: 2.5em; padding-top: 0.5em; font-size: 0.9em; }
  section.footnotes li > div { display: inline-block; vertical-align: top; max-width: calc(100% - 2em); }
  section.footnotes li p { margin: 0 0 0.3em; }
  a.footnote-backref { text-decoration: none; margin-left: 0.4em; }
  @media print { body { margin: 0; max-width: none; } a { color: inherit; } }
`;

/**
 * A standalone HTML file around an already-sanitized body. The CSP forbids every script, so even a
 * sanitizer miss could not run anything when the file is opened.
 */
export function standaloneHtml(title: string, sanitizedBody: string): string {
  const safeTitle = escapeHtml(titleAsPlainLine(title));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src https: data:" />
<title>${safeTitle}</title>
<style>${STANDALONE_STYLES}</style>
</head>
<body>
<h1>${safeTitle}</h1>
${sanitizedBody}
</body>
</html>
`;
}
