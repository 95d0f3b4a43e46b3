/** Backups of an instance on the embedded database (scripts/backup.ts). */
export { backupInstance, restoreInstance } from './archive';
