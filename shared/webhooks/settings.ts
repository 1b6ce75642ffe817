import { config } from '#shared/runtime/config.ts';
import type { DeliverySettings } from './deliver.ts';
import { targetPolicy } from './targets.ts';

/** The delivery's settings as they are now (shared/runtime/config.ts checked them when it loaded). */
export const deliverySettings = (): DeliverySettings => ({
  policy: targetPolicy(),
  retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
});
