import { z } from 'zod';
import { DEFAULT_TIME_ZONE, isTimeZone, MAX_TARGET_WORDS } from '../goals';

/** Writing goals API (/api/documents/:id/goal, docs/goals.md). */

/** The writer's IANA time zone, e.g. `Europe/Paris`; an unknown one is refused, a missing one is UTC. */
const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone, e.g. Europe/Paris')
  .default(DEFAULT_TIME_ZONE);

/** GET /api/documents/:id/goal?zone=… */
export const goalQuerySchema = z.object({ zone: timeZoneSchema });

/** PUT /api/documents/:id/goal: the word target and an optional deadline (a date, the last day of writing). */
export const setGoalBodySchema = z.object({
  target_words: z.number().int().min(1).max(MAX_TARGET_WORDS),
  deadline: z.iso.date().nullable().default(null),
  zone: timeZoneSchema,
});

/** A day of the history: net words the writer wrote that day (in their zone), every document together. */
const dayWordsSchema = z.object({ day: z.iso.date(), words: z.number().int() });

/** What the Goals popover shows for a document and its writer. */
export const documentGoalSchema = z.object({
  /** Null when no target is set. */
  target_words: z.number().int().nullable(),
  deadline: z.iso.date().nullable(),
  /** Words in the document now. */
  words: z.number().int(),
  /** Words a day still needed to meet the deadline; null without a deadline or once it has passed. */
  daily_target: z.number().int().nullable(),
  /** The writer's own net words today in this document, and in all their documents. */
  today_words: z.number().int(),
  today_words_all: z.number().int(),
  /** Consecutive days (in the writer's zone) with at least `streak_min_words` net words. */
  streak_days: z.number().int(),
  streak_min_words: z.number().int(),
  today: z.iso.date(),
  zone: z.string(),
  /** The last 30 days, oldest first. */
  history: dayWordsSchema.array(),
});
export type DocumentGoal = z.infer<typeof documentGoalSchema>;
