/** What other folders may use from notifications; everything else in the folder is its own business. */
export { notificationRoutes } from './routes';
export { notifyAboutComment } from './service';
export type { CommentNotice } from './service';
export { registerNotificationDigest } from './digest';
