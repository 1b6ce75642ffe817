import * as z from 'zod/mini';
import { settingsSection } from '#shared/runtime/config.ts';
import type { DeliverySettings } from './deliver.ts';
import type { TargetPolicy } from './targets.ts';

// Where webhooks may go and when a failed delivery is tried again: settings read and checked when
// this module loads (shared/runtime/config.ts reads them; a bad value fails the cold start, not a
// delivery). Only the functions that make or deliver webhooks load this.

/** Webhooks' settings and their defaults (docs/running-locally.md lists them; a test compares). */
export const WebhookSettingsSchema = z.object({
  /** `1`: webhooks may reach http, loopback and private receivers (a local run); the stack never sets it. */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z.optional(z.enum(['0', '1'], { error: 'must be 0 or 1' })),
  /** The unit of the webhook retry schedule, in seconds (shared/webhooks/retry-schedule.ts). */
  WEBHOOK_RETRY_BASE_SECONDS: z.prefault(
    z.pipe(
      z.string().check(
        z.regex(/^[0-9]{1,9}(\.[0-9]{1,9})?$/, { error: 'must be a positive number of seconds' }),
        z.refine((value) => Number(value) > 0, 'must be a positive number of seconds'),
      ),
      z.transform((value) => Number(value)),
    ),
    '60',
  ),
});

const settings = settingsSection(WebhookSettingsSchema);

/** The policy the settings give. The stack never sets the variable: there, https and public addresses only. */
export const targetPolicy = (): TargetPolicy => ({
  allowPrivateTargets: settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS === '1',
});

/** The delivery's settings as they are now. */
export const deliverySettings = (): DeliverySettings => ({
  policy: targetPolicy(),
  retryBaseSeconds: settings.WEBHOOK_RETRY_BASE_SECONDS,
});
