/** What other folders may use from notifications; everything else in the folder is its own business. */
export { notificationRoutes } from './routes';
export { notifyAboutComment } from './service';
export type { CommentNotice, NotificationsContext } from './service';
export { registerNotificationDigest, sendDigests } from './digest';
