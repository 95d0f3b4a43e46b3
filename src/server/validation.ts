import type { z } from 'zod';
import { badRequest } from './errors';

/** Parses input with a shared zod schema; a mismatch is a 400 `validation_failed` naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw badRequest(`${where}${issue?.message ?? 'Invalid request'}`, 'validation_failed');
}
