import { z } from 'zod';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX_LENGTH } from '../constants';

const webhookEventSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const webhookInputSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'Enter an http:// or https:// address.' })
    .max(WEBHOOK_URL_MAX_LENGTH),
  events: z
    .array(webhookEventSchema)
    .min(1, 'Choose at least one event.')
    .refine((events) => new Set(events).size === events.length, 'Each event once.'),
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  createdAt: string;
  disabledAt: string | null;
  consecutiveFailures: number;
}

export interface WebhookDelivery {
  id: string;
  event: WebhookEvent;
  documentId: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}
