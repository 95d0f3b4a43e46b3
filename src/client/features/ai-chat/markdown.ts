import { Marked } from 'marked';
import { sanitizeAnswerHtml } from '@client/lib/sanitize-html';

/**
 * A chat answer as HTML. The model's Markdown is hostile input: marked renders it (raw HTML included) and
 * the one rendered-HTML policy (src/shared/editor/html-policy.ts) removes everything the editor would not
 * render itself — scripts, event handlers, links without a whitelisted protocol — and, in an answer, images.
 */
const marked = new Marked({ gfm: true, breaks: true, async: false });

export function renderChatMarkdown(markdown: string): string {
  return sanitizeAnswerHtml(marked.parse(markdown, { async: false }));
}
