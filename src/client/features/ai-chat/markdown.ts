import { Marked } from 'marked';
import { sanitizeRenderedHtml } from '@client/lib/sanitize-html';

/**
 * A chat answer as HTML. The model's Markdown is hostile input: marked renders it (raw HTML included) and
 * the one rendered-HTML policy (src/shared/editor/html-policy.ts) removes everything the editor would not
 * render itself — scripts, event handlers, images, links without a whitelisted protocol.
 */
const marked = new Marked({ gfm: true, breaks: true, async: false });

export function renderChatMarkdown(markdown: string): string {
  return sanitizeRenderedHtml(marked.parse(markdown, { async: false }));
}
