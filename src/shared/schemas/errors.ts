import { z } from 'zod';

/** Every API error has this body: a human message and a stable snake_case code. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  reasons: z.array(z.string()).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
