/** The composer opens this far below the selection, in pixels. */
export const COMPOSER_GAP_PX = 8;
/** The composer's width on a wide screen, in pixels (a phone's is the screen's, less a margin). */
export const COMPOSER_WIDTH_PX = 320;
/** How long after the last change the panel looks again for which passages are still in the text. */
export const RANGES_DELAY_MS = 250;
/** A document with more threads than this many pages of them shows the first ones. */
export const MAX_THREAD_PAGES = 100;
/** Where a share-link visitor's display name is remembered in this browser. */
export const VISITOR_NAME_KEY = 'qw-comment-name';
/**
 * How often a page without the live document (a commenter's, a "Can comment" link's) asks for the threads
 * again: nothing tells it of others' comments.
 */
export const THREADS_POLL_MS = 5_000;
