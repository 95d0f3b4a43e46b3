import { z } from 'zod';
import { MAX_NOTIFICATIONS_READ_AT_ONCE, NOTIFICATIONS_PAGE_SIZE } from '../notifications';

/** GET /api/notifications query: newest first, a page at a time. */
export const listNotificationsQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_SIZE).default(NOTIFICATIONS_PAGE_SIZE),
});

/** POST /api/notifications/read: some of one's notifications by id, or all of them. */
export const markReadSchema = z.union([
  z
    .object({ ids: z.array(z.uuid('must be notification ids')).min(1).max(MAX_NOTIFICATIONS_READ_AT_ONCE) })
    .strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkRead = z.infer<typeof markReadSchema>;
