import DOMPurify from 'dompurify';
import { domPurifySanitizer } from '@shared/editor/html-policy';

/**
 * Sanitized HTML of rendered user content (the shared page, HTML exports): DOMPurify configured from the one
 * rendered-HTML policy the server's exports use too (src/shared/editor/html-policy.ts).
 */
export const sanitizeRenderedHtml: (html: string) => string = domPurifySanitizer(DOMPurify);

/** Sanitized HTML of an AI answer in the chat: the same policy, without images (an answer has none). */
export const sanitizeAnswerHtml: (html: string) => string = domPurifySanitizer(DOMPurify, { images: false });
