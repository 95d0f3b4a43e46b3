import { Marked, type TokenizerAndRendererExtension } from 'marked';

/**
 * Markdown → HTML for the import pipeline. Some inputs make the parser's work grow with the square of a
 * paragraph's length (400 KB of `*a` takes minutes): this runs inside an import worker (import-pool.ts),
 * whose time budget ends it, so it never stalls the server or another writer's import.
 */

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

// The editor's `==highlight==`, which the Markdown export writes (sub/superscript it writes as HTML).
const highlight: TokenizerAndRendererExtension = {
  name: 'highlight',
  level: 'inline',
  start: (source) => source.indexOf('=='),
  tokenizer(source) {
    const match = /^==(?=[^=\s])([^=]*[^=\s])==/.exec(source);
    if (!match) return undefined;
    return { type: 'highlight', raw: match[0], tokens: this.lexer.inlineTokens(match[1]!) };
  },
  renderer(token) {
    return `<mark>${this.parser.parseInline(token.tokens ?? [])}</mark>`;
  },
};

// CommonMark + GFM (tables, task lists, strikethrough, autolinks).
const markdown = new Marked({ gfm: true, breaks: false, async: false }).use({
  extensions: [underline, highlight],
});

export function markdownToHtml(source: string): string {
  return markdown.parse(source, { async: false });
}
