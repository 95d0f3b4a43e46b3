import { readFileSync } from 'node:fs';
import escapeHtml from 'escape-html';
import path from 'node:path';
import { EDITOR_HTML_FILE, EDITOR_PATH, LANDING_HTML_FILE } from '../shared/first-paint';
import type { Database } from './db/client';
import { findSharedPageMeta, shareLinkState } from './documents';
import { isCurrentLinkKey, linkKeyFromQuery } from './sharing';
import type { RichTextDoc } from '../shared/schemas/richText';
import { rejectAllSuggestions } from '../shared/suggestions/resolve';
import { UUID_SOURCE } from '../shared/uuid';

export const SHARED_PATH = new RegExp(`^/shared/(${UUID_SOURCE})/?$`, 'i');
const DESCRIPTION_LENGTH = 160;

function plainText(node: unknown, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out;
  const { text, content } = node as { text?: unknown; content?: unknown };
  if (typeof text === 'string') out.push(text);
  if (Array.isArray(content)) for (const child of content) plainText(child, out);
  return out;
}

/**
 * index.html for a client route: `/` with the landing page in it, the editor's routes preloading its code.
 * Shared-document links get their own head: a public, unprotected document is described by its title and opening
 * words (pending suggestions only when the owner shows them to readers); anything else (private, expired,
 * protected, missing, an address replaced by resetting the link) tells search engines not to index the link
 * and reveals nothing. `query`: the address's query (a reset link's key is in it).
 */
export async function renderIndexHtml(
  clientDir: string,
  pathname: string,
  database: Database,
  query?: unknown,
): Promise<string> {
  // `/` has its own copy with the landing page already in it (scripts/vite-prerender-landing.ts), painted before
  // the app's JavaScript arrives; a build without it serves index.html as every other route does.
  if (pathname === '/') return readLanding(clientDir) ?? readIndex(clientDir);
  if (EDITOR_PATH.test(pathname)) return readEditor(clientDir) ?? readIndex(clientDir);
  const html = readIndex(clientDir);
  const match = SHARED_PATH.exec(pathname);
  if (!match) return html;
  const row = await findSharedPageMeta(database.db, match[1]!);
  const open =
    row &&
    shareLinkState(row) === 'open' &&
    !row.passwordHash &&
    isCurrentLinkKey(row.linkKey, linkKeyFromQuery(query));
  if (!open) {
    return html
      .replace(/<title>[^<]*<\/title>/, '<title>Shared document — Quillwright</title>')
      .replace('</head>', '<meta name="robots" content="noindex, nofollow" />\n</head>');
  }
  const title = escapeHtml(`${row.title} — Quillwright`);
  const content = row.showSuggestions ? row.content : rejectAllSuggestions(row.content as RichTextDoc);
  const words = plainText(content).join(' ').replace(/\s+/g, ' ').trim();
  const description = escapeHtml(
    words.length > DESCRIPTION_LENGTH ? `${words.slice(0, DESCRIPTION_LENGTH - 1)}…` : words || row.title,
  );
  // Replacement FUNCTIONS, not strings: in a replacement string `$&`, `$'` or `` $` `` (which a title may
  // contain) would copy pieces of index.html into the head.
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace(/<meta name="description"[^>]*>/, () => `<meta name="description" content="${description}" />`)
    .replace(
      '</head>',
      () =>
        `<meta property="og:title" content="${title}" />\n<meta property="og:description" content="${description}" />\n</head>`,
    );
}

// Pages are read per request (small files in the page cache) so a rebuilt app is served without a restart.
function readIndex(clientDir: string): string {
  return readFileSync(path.join(clientDir, 'index.html'), 'utf8');
}

function readLanding(clientDir: string): string | null {
  return readOptional(path.join(clientDir, LANDING_HTML_FILE));
}

function readEditor(clientDir: string): string | null {
  return readOptional(path.join(clientDir, EDITOR_HTML_FILE));
}

function readOptional(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
