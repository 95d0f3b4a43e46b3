/** What other folders may use from comments; everything else in the folder is its own business. */
export { memberCommentRoutes, sharedCommentRoutes } from './routes';
export { createThread, remarkOpenThreads } from './service';
