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

/**
 * GFM footnotes: `[^label]` in the text, `[^label]: the note` anywhere (further paragraphs indented by four
 * spaces). They become the HTML our own export writes (sup > a[href="#fn-N"], section.footnotes > ol > li#fn-N),
 * which the importer reads as footnotes; the content validator then orders the notes as the references.
 * A reference without a definition stays text, as in GFM. Labels are matched without regard to case.
 */
interface FootnoteState {
  /** Label (lowercased) → its number among the definitions. */
  labels: Map<string, number>;
  notes: string[];
}
let footnotes: FootnoteState = { labels: new Map(), notes: [] };

const FOOTNOTE_DEFINITION =
  /^\[\^([^\]\s]{1,100})\]:[ \t]?([^\n]*(?:\n+(?: {4}|\t)[^\n]*|\n(?![ \t]*\n|\[\^)[^\n]+)*)\n*/;

const footnoteDefinition: TokenizerAndRendererExtension = {
  name: 'footnoteDefinition',
  level: 'block',
  start: (source) => /^\[\^/m.exec(source)?.index,
  tokenizer(source) {
    const match = FOOTNOTE_DEFINITION.exec(source);
    if (!match) return undefined;
    const label = match[1]!.toLowerCase();
    if (!footnotes.labels.has(label)) footnotes.labels.set(label, footnotes.labels.size + 1);
    const body = match[2]!.replace(/^(?: {4}|\t)/gm, '');
    return { type: 'footnoteDefinition', raw: match[0], label, tokens: this.lexer.blockTokens(body, []) };
  },
  renderer(token) {
    const number = footnotes.labels.get(String(token.label))!;
    footnotes.notes[number - 1] ??= `<li id="fn-${number}">${this.parser.parse(token.tokens ?? [])}</li>`;
    return '';
  },
};

const footnoteReference: TokenizerAndRendererExtension = {
  name: 'footnoteReference',
  level: 'inline',
  start: (source) => source.indexOf('[^'),
  tokenizer(source) {
    const match = /^\[\^([^\]\s]{1,100})\]/.exec(source);
    const number = match ? footnotes.labels.get(match[1]!.toLowerCase()) : undefined;
    if (!match || number === undefined) return undefined;
    return { type: 'footnoteReference', raw: match[0], number };
  },
  renderer(token) {
    return `<sup><a href="#fn-${token.number}" id="fnref-${token.number}">${token.number}</a></sup>`;
  },
};

// CommonMark + GFM (tables, task lists, strikethrough, autolinks, footnotes).
const markdown = new Marked({ gfm: true, breaks: false, async: false }).use({
  extensions: [underline, highlight, footnoteDefinition, footnoteReference],
  hooks: {
    preprocess(source) {
      footnotes = { labels: new Map(), notes: [] };
      return source;
    },
    postprocess(html) {
      const notes = footnotes.notes.filter(Boolean);
      return notes.length > 0
        ? `${html}<section class="footnotes"><ol>${notes.join('')}</ol></section>`
        : html;
    },
  },
});

export function markdownToHtml(source: string): string {
  return markdown.parse(source, { async: false });
}
