import { Marked, type TokenizerAndRendererExtension } from 'marked';

/**
 * CommonMark + GFM (tables, strikethrough, autolinks) → HTML, for the HTML import path. Also reads the
 * editor's own `++underline++`, which the Markdown export writes. Raw HTML inside the Markdown comes
 * through as HTML and is sanitized with everything else.
 */
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

const markdown = new Marked({ gfm: true, breaks: false, async: false }).use({ extensions: [underline] });

export function markdownToHtml(source: string): string {
  return markdown.parse(source, { async: false });
}
