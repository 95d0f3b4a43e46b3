/**
 * Business constants and limits (timings, reading speed, editor defaults, field lengths), named in one place.
 * Client and server both import from here; never repeat these numbers as literals.
 */

export const PRODUCT_NAME = 'Quillwright';

// Timings
export const AUTOSAVE_DEBOUNCE_MS = 2_000;
export const SUBSCRIPTION_POLL_MS = 60_000;
export const COPIED_INDICATOR_MS = 2_000;
export const PRINT_DELAY_MS = 500;

// Reading
export const READING_WORDS_PER_MINUTE = 200;
export const DEFAULT_ALTERNATIVES_COUNT = 3;
export const DEFAULT_READABILITY_SCORE = 7;

// Document analysis (Document Stats → Analyze, and POST /api/ai/analyze): offline, no provider involved.
// src/shared/analysis measures; the editor highlights what these thresholds flag (docs/ai.md "Analysis").
/** What analysis answers when it fails: readability DEFAULT_READABILITY_SCORE and this one suggestion. */
export const ANALYSIS_FALLBACK_SUGGESTION = 'Content analysis unavailable';
/** A sentence with more words than this is long: highlighted, and suggested for splitting. */
export const LONG_SENTENCE_WORDS = 30;
/** Sentence-length chart: the upper bound (in words) of each bucket; one more bucket holds the longer ones. */
export const SENTENCE_LENGTH_BUCKETS = [10, 20, LONG_SENTENCE_WORDS] as const;
/** Pause in typing before the open analysis panel analyses the document again. */
export const ANALYSIS_DEBOUNCE_MS = 600;
/** Flesch reading ease below this suggests shorter words and sentences. */
export const DIFFICULT_READING_EASE = 50;
/** Sentiment (AFINN comparative score per word) beyond ± this reads as positive or negative. */
export const SENTIMENT_NEUTRAL_BAND = 0.05;
/** A word (not a stopword) is overused from this many uses and this share of all words. */
export const REPEATED_WORD_MIN_COUNT = 3;
export const REPEATED_WORD_MIN_SHARE = 0.005;
/** The same word again within this many words (in one paragraph) is a close repeat. */
export const REPEATED_WORD_WINDOW = 8;
/** Shorter words are never reported as repeated. */
export const REPEATED_WORD_MIN_LENGTH = 3;
/** Repeated words listed at most (most repeated first). */
export const REPEATED_WORDS_MAX = 8;
/** Long sentences named one by one in the suggestions; the rest are counted. */
export const ANALYSIS_NAMED_SENTENCES_MAX = 3;
/** Characters of a sentence quoted in a suggestion ("Split the 34-word sentence beginning '…'"). */
export const ANALYSIS_QUOTE_CHARS = 40;

// Field lengths the client enforces too (kept here, apart from the zod schemas, so pages need not load zod).
/** Longest title we store (after trimming). 500 fits any real title and keeps lists and tabs readable. */
export const MAX_DOCUMENT_TITLE_LENGTH = 500;
/** Longest version name kept ("Save version…"). */
export const MAX_VERSION_NAME_LENGTH = 120;

// The browser's offline copy of a document (IndexedDB): updates of this window are written as one. The pending
// batch is written at once when the page is hidden or closed.
export const OFFLINE_COPY_WRITE_BATCH_MS = 500;
// Until IndexedDB confirms a batch, its updates are also kept in a localStorage journal, written in idle time
// at most this long after a keystroke (and at once when the page is hidden or closed).
export const OFFLINE_COPY_JOURNAL_DELAY_MS = 50;
// Past this many entries the copy is rewritten as one (the document's whole state), this long after the write
// that reached it, so opening reads a few entries, not thousands.
export const OFFLINE_COPY_TRIM_AFTER_WRITES = 500;
export const OFFLINE_COPY_TRIM_DELAY_MS = 1_000;

// Ghost-text completion (editor): the pause before asking, per preference; what is sent and shown.
export const GHOST_COMPLETION_DELAY_MS = { quick: 400, normal: 700, relaxed: 1_200 } as const;
/** A paragraph needs this many words before a continuation is offered. */
export const GHOST_COMPLETION_MIN_WORDS = 4;
/** Characters before the caret sent as context. */
export const GHOST_COMPLETION_CONTEXT_CHARS = 2_000;
/** Longest ghost shown (cut at a word). */
export const GHOST_COMPLETION_MAX_CHARS = 240;

// Custom AI commands (Settings → AI commands)
/** How many commands one writer may keep. */
export const AI_COMMANDS_PER_USER = 20;
export const AI_COMMAND_NAME_MAX = 60;
export const AI_COMMAND_INSTRUCTION_MAX = 2_000;
/** Commands shown inline in the selection helper; the rest sit in its "More" menu. */
export const AI_COMMANDS_INLINE_IN_HELPER = 2;
/** Rephrasings the selection helper's "Alternatives" offers side by side. */
export const SELECTION_ALTERNATIVES_COUNT = 3;

// Chat with the document (editor side panel; docs/ai.md "Chat with the document")
/** Messages kept per document and writer; older ones are deleted as new ones arrive. */
export const CHAT_HISTORY_LIMIT = 100;
/** Earlier messages sent to the model with each question. */
export const CHAT_PROMPT_MESSAGES = 10;
/** Characters of the document sent with a question; longer documents are trimmed around the relevant parts. */
export const CHAT_CONTEXT_CHARS = 24_000;
/** Characters of the earlier conversation sent with a question (oldest dropped first). */
export const CHAT_HISTORY_CHARS = 8_000;
/** Longest message a writer may send. */
export const CHAT_MESSAGE_MAX_CHARS = 4_000;
/** Most edits one answer may propose; further ones are dropped. */
export const CHAT_MAX_EDITS = 20;
/** Longest passage an edit may find or write. */
export const CHAT_EDIT_MAX_CHARS = 4_000;

// Editor
export const DEFAULT_EDITOR_FONT_FAMILY = 'Inter';
export const DEFAULT_EDITOR_FONT_SIZE_PX = 16;
export const SLASH_PALETTE_MAX_HEIGHT_PX = 400;
export const HEADING_LEVELS = [1, 2, 3] as const;
export const UNDO_HISTORY_DEPTH = 100;
export const UNDO_NEW_GROUP_DELAY_MS = 500;
export const DEFAULT_LINK_PROTOCOL = 'http';
export const LINK_REL = 'noopener noreferrer nofollow';
export const LINK_TARGET = '_blank';
export const TEXT_ALIGNMENTS = ['left', 'center', 'right', 'justify'] as const;
export type TextAlignment = (typeof TEXT_ALIGNMENTS)[number];
/**
 * Highlight colours a document may hold (a highlight without a colour is the default yellow), each with the
 * Word highlight colour it becomes in a .docx (Word offers a fixed palette) and the label the editor shows.
 */
export const HIGHLIGHT_COLORS = [
  { value: '#fef08a', word: 'yellow', label: 'Yellow' },
  { value: '#bbf7d0', word: 'green', label: 'Green' },
  { value: '#bae6fd', word: 'cyan', label: 'Blue' },
  { value: '#fbcfe8', word: 'magenta', label: 'Pink' },
] as const;
/** Table cell alignments (a cell's own, as GFM tables carry them). */
export const TABLE_CELL_ALIGNMENTS = ['left', 'center', 'right'] as const;
/** Largest colspan or rowspan of one table cell. */
export const MAX_TABLE_CELL_SPAN = 100;
/** Widest column a table may keep, in CSS pixels (what dragging a column border stores). */
export const MAX_TABLE_COLUMN_WIDTH_PX = 2000;
/** Rows (the header row included) and columns of a table made with /table. */
export const NEW_TABLE_ROWS = 3;
export const NEW_TABLE_COLUMNS = 3;
/** Narrowest table column, in CSS pixels (the editor's resize floor). */
export const MIN_TABLE_COLUMN_WIDTH_PX = 25;

/** Link safety: hrefs are kept only with these schemes (or when relative); any other href is blanked. */
export const ALLOWED_LINK_PROTOCOLS = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'tel',
  'callto',
  'sms',
  'cid',
  'xmpp',
] as const;

export const EDITOR_FONT_FAMILIES = [
  'Inter',
  'Space Grotesk',
  'Arial',
  'Georgia',
  'Times New Roman',
  'Helvetica',
  'Courier New',
  'Verdana',
] as const;
export const EDITOR_FONT_SIZES_PX = [12, 14, 16, 18, 20, 24, 28, 32, 36, 48] as const;
export const EDITOR_TEXT_COLORS = [
  { name: 'Black', value: '#000000' },
  { name: 'Gray', value: '#6b7280' },
  { name: 'Red', value: '#ef4444' },
  { name: 'Orange', value: '#f97316' },
  { name: 'Amber', value: '#f59e0b' },
  { name: 'Green', value: '#22c55e' },
  { name: 'Blue', value: '#3b82f6' },
  { name: 'Purple', value: '#a855f7' },
  { name: 'Pink', value: '#ec4899' },
] as const;

// Dashboard
export const DASHBOARD_SKELETON_CARDS = 6;
export const DEFAULT_DOCUMENT_TITLE = 'Untitled Document';

// Toasts and primitives
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5_000;
export const TOAST_SWIPE_DIRECTION = 'right';
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'] as const;
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// Auth (client session handling)
export const AUTH_TICK_MS = 30_000;
export const AUTH_REFRESH_MARGIN_TICKS = 3;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const MIN_PASSWORD_LENGTH = 8;

// Export
export const EXPORT_FILENAME_FALLBACK = 'document';

// Landing and legal
export const TYPING_MS_PER_CHAR = 100;
export const TYPING_PAUSE_MS = 2_000;
export const DEMO_SUGGESTION_TOGGLE_MS = 2_000;
export const DEMO_REFACTOR_MS = 3_000;
export const DEMO_SAVED_COUNTER_MS = 1_000;
export const DEMO_SAVED_COUNTER_MAX = 10;
export const MINIMUM_AGE_YEARS = 13;
export const DATA_REMOVAL_DAYS = 30;
export const TERMS_CHANGE_NOTICE_DAYS = 30;
export const UPTIME_TARGET_PERCENT = 99.9;
export const MONEY_BACK_GUARANTEE_DAYS = 14;
/** The service's health check (server/health), which the status page shows. */
export const HEALTH_PATH = '/api/health';

// Search and import
export const SEARCH_MAX_QUERY_LENGTH = 200;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
/** Quick switcher: how many recent documents it offers before anything is typed. */
export const QUICK_SWITCHER_RECENT_COUNT = 8;
/** Dashboard: cards rendered at first and added by each "Show more". */
export const DASHBOARD_PAGE_SIZE = 60;
export const LIBRARY_MAX_LIMIT = 1_000;
/** Days a deleted document stays in the trash unless the server sets TRASH_RETENTION_DAYS. */
export const TRASH_RETENTION_DAYS_DEFAULT = 30;
export const IMPORT_MAX_FILES = 20;
export const IMPORT_EXTENSIONS = ['.md', '.markdown', '.docx', '.html', '.htm', '.txt'] as const;
export const IMPORTS_PER_MINUTE = 60;
/** Type-ahead: how long typing must pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 150;
/** Type-ahead sends a search per pause in typing; this bounds what one client can ask of the database. */
export const SEARCHES_PER_MINUTE = 300;
/**
 * Each opening of the editor asks once for the document's Yjs state (encoding a live novel takes the server tens
 * of milliseconds); an editor refused falls back to its collaboration socket's first sync.
 */
export const DOCUMENT_STATE_REQUESTS_PER_MINUTE = 300;

// Folders (docs/library.md)
/** How deep folders nest: a top-level folder is at depth 1. */
export const MAX_FOLDER_DEPTH = 8;
export const MAX_FOLDER_NAME_LENGTH = 100;
/** Folders one user may keep (outside the trash). */
export const MAX_FOLDERS_PER_USER = 1_000;
/** Documents one folder export (a .zip of the folder and its sub-folders) may hold; beyond it, 413. */
export const MAX_FOLDER_EXPORT_DOCUMENTS = 1_000;

// Compiling a book (docs/compile.md)
/** Chapters one book may hold (a folder's documents or one document's level-1 headings); beyond it, 413. */
export const MAX_BOOK_CHAPTERS = 500;
/** Longest book field (title, author, copyright line, identifier). */
export const MAX_BOOK_FIELD_LENGTH = 300;
/** The manuscript's contact block (name, address, e-mail, phone), several lines. */
export const MAX_BOOK_CONTACT_LENGTH = 1_000;

// Personal API tokens
/** What every token's secret starts with, so a leaked one is recognisable (and secret scanners can find it). */
export const API_TOKEN_PREFIX = 'qw_pat_';
/** Requests one API token may make per minute (each token has its own budget). */
export const API_TOKEN_REQUESTS_PER_MINUTE = 120;
export const API_TOKENS_PER_USER = 50;
export const API_TOKEN_NAME_MAX_LENGTH = 100;
/** Expiry choices offered when creating a token (days); none is also allowed. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const API_TOKEN_MAX_EXPIRY_DAYS = 3_650;

// OAuth 2.1 sign-in for the MCP endpoint: its access tokens are API tokens of kind 'oauth'
/** An OAuth access token's secret starts with this; the token check accepts it as it does `qw_pat_`. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'qw_oat_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'qw_ort_';
/** Every secret the API token check takes: a personal token's or an OAuth access token's. */
export const API_TOKEN_SECRET_PREFIXES = [API_TOKEN_PREFIX, OAUTH_ACCESS_TOKEN_PREFIX] as const;
/** An authorization code is exchanged at once by the client that asked for it: a minute is plenty. */
export const OAUTH_CODE_TTL_SECONDS = 60;
export const OAUTH_ACCESS_TOKEN_TTL_SECONDS = 3_600;
/** A refresh token unused this long stops working (each use gives a new one, for as long again). */
export const OAUTH_REFRESH_TOKEN_TTL_DAYS = 30;
export const OAUTH_CLIENT_NAME_MAX_LENGTH = 200;
export const OAUTH_REDIRECT_URIS_MAX = 10;
export const OAUTH_REDIRECT_URI_MAX_LENGTH = 2_000;
/** The web app's consent page; GET /oauth/authorize is the authorization endpoint clients open. */
export const OAUTH_AUTHORIZE_PATH = '/oauth/authorize';

// The MCP endpoint (personal API tokens and OAuth access tokens)
export const MCP_PATH = '/mcp';
/** Documents per page of the MCP tool list_documents and the recent-documents resource. */
export const MCP_LIST_PAGE_SIZE = 20;
/** Search hits the MCP tool search_documents answers at most. */
export const MCP_SEARCH_LIMIT = 20;
/** The longest find / replace text of the MCP tool propose_edit. */
export const MCP_EDIT_TEXT_MAX_LENGTH = 10_000;
/**
 * Invitations by e-mail one client may send per hour: each may send a mail to an address the server does not
 * know, so this bounds what anyone can make the server send, whatever the plan allows per document.
 */
export const MEMBER_INVITES_PER_HOUR = 30;
/**
 * How often a document open as a member asks for the role again: the socket tells of a lost document, not of
 * a changed role (an editor made suggester keeps the same connection).
 */
export const MEMBER_ROLE_RECHECK_MS = 10_000;

// Templates
/** A writer keeps at most this many templates of their own (the built-in ones do not count). */
export const TEMPLATES_PER_USER = 100;
export const MAX_TEMPLATE_NAME_LENGTH = 120;
/** The preview of a template in the "New from template" dialog: its opening text, at most this long. */
export const TEMPLATE_PREVIEW_CHARS = 280;
/** Saving a template copies a whole document; making a document from one is a create. */
export const TEMPLATE_WRITES_PER_MINUTE = 60;
/** Webhooks (docs/webhooks.md). */
export const WEBHOOK_EVENTS = [
  'document.created',
  'document.updated',
  'document.trashed',
  'document.restored',
  'document.deleted',
  'comment.created',
] as const;
export const WEBHOOKS_PER_USER = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2_000;
/** Changes to a document within this time after the first are announced by one `document.updated`. */
export const WEBHOOK_UPDATE_DEBOUNCE_MS = 10_000;
/** Waits before each retry of a delivery that failed; after the last, the delivery has failed. */
export const WEBHOOK_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
/** Deliveries that failed one after another before the webhook is disabled. */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 5;
/** How long one attempt may take, and how often the sender looks for due deliveries. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_POLL_INTERVAL_MS = 1_000;

// Images in documents (docs/images.md)
/** Largest image file one upload may send; a bigger one is refused with 413 before it is decoded. */
export const MAX_IMAGE_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Stored images are downscaled to at most this many pixels on their long side. */
export const MAX_IMAGE_DIMENSION_PX = 2_560;
/** Images with more pixels than this are refused before decoding (a decompression bomb). */
export const MAX_IMAGE_INPUT_PIXELS = 100_000_000;
/** What an upload may be, by its content (never by its name or declared type). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/avif'] as const;
export const IMAGE_UPLOADS_PER_ADDRESS_PER_MINUTE = 60;
export const IMAGE_UPLOADS_PER_USER_PER_MINUTE = 30;
/** The widths an image may take in the text column, in percent (the editor snaps to these). */
export const IMAGE_WIDTHS = [25, 50, 75, 100] as const;
export const IMAGE_ALIGNMENTS = ['left', 'center', 'right'] as const;
export const MAX_IMAGE_ALT_LENGTH = 500;
/** The caption shown under an image (its `title`). */
export const MAX_IMAGE_CAPTION_LENGTH = 256;
/**
 * An <img> cannot send the bearer token, so its address carries an access token minted per document view.
 * Tokens are the same for everyone asking in one window (the browser's cache keeps working) and valid for
 * one more window after it.
 */
export const IMAGE_ACCESS_WINDOW_SECONDS = 30 * 60;
export const IMAGE_ACCESS_PARAM = 'access';

// Comments on passages (docs/comments.md)
/** New threads and replies one person (or one address, for share-link visitors) may post per minute. */
export const COMMENT_WRITES_PER_MINUTE = 60;

/** Cursor-paged REST lists (`?limit=`, `?cursor=`; docs/api.md): the page size without `limit`, and the most one page holds. */
export const API_LIST_DEFAULT_LIMIT = 50;
export const API_LIST_MAX_LIMIT = 200;

/** Idempotency keys on creates (docs/api.md): the longest key, and how long an answer is kept for replay. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
