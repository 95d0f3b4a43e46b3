import type { EditorPlugin } from '@client/features/editor';
import { NotificationsBell } from './NotificationsBell';

/** The bell in the editor's header, so a writer at work sees new comments without leaving the document. */
export const notificationsEditorPlugin: EditorPlugin = {
  name: 'notifications',
  Notifications: NotificationsBell,
};
