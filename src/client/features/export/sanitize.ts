import DOMPurify from 'dompurify';
import { LINK_REL } from '@shared/constants';
import { isSafeHref } from '@shared/schemas/richText';

let hooked = false;

/**
 * Sanitized HTML of rendered user content: DOMPurify's defaults (no scripts, no event handlers) plus our
 * link rules: only whitelisted protocols, and every link opens in a new tab with the safe rel.
 */
export function sanitizeRenderedHtml(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName !== 'A') return;
      const href = node.getAttribute('href');
      if (href !== null && !isSafeHref(href)) node.removeAttribute('href');
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', LINK_REL);
    });
  }
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'img', 'svg', 'math', 'iframe', 'form', 'input'],
    ADD_ATTR: ['target'],
  });
}
