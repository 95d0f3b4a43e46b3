// Notifications about comments: the header's bell with its list.
export { NotificationsBell } from './NotificationsBell';
