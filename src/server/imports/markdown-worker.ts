// Markdown → HTML in a worker thread. Some inputs make the parser's work grow with the square of a
// paragraph's length (400 KB of `*a` takes minutes), which on the main thread would stall every request
// and live-collaboration message; here the caller can stop it after a deadline (markdown-to-html.ts).
// Only erasable TypeScript and no relative imports: Node runs this file directly (type stripping).
import { parentPort } from 'node:worker_threads';
import { Marked, type TokenizerAndRendererExtension } from 'marked';

export type MarkdownRequest = { id: number; source: string };
export type MarkdownResponse = { id: number; html: string } | { id: number; error: string };

// The editor's own `++underline++`, which the Markdown export writes.
const underline: TokenizerAndRendererExtension = {
  name: 'underline',
  level: 'inline',
  start: (source) => source.indexOf('++'),
  tokenizer(source) {
    const match = /^\+\+(?=\S)([\s\S]*?\S)\+\+/.exec(source);
    if (!match) return undefined;
    return { type: 'underline', raw: match[0], tokens: this.lexer.inlineTokens(match[1]!) };
  },
  renderer(token) {
    return `<u>${this.parser.parseInline(token.tokens ?? [])}</u>`;
  },
};

// CommonMark + GFM (tables, strikethrough, autolinks).
const markdown = new Marked({ gfm: true, breaks: false, async: false }).use({ extensions: [underline] });

parentPort?.on('message', (request: MarkdownRequest) => {
  try {
    const html = markdown.parse(request.source, { async: false });
    parentPort?.postMessage({ id: request.id, html } satisfies MarkdownResponse);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: String(error) } satisfies MarkdownResponse);
  }
});
