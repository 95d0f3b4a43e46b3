// Notifications about comments: the header's bell with its list (also in the editor's header, as a plugin).
export { NotificationsBell } from './NotificationsBell';
export { notificationsEditorPlugin } from './editor-plugin';
