import type { DeliverySettings } from './deliver.ts';
import { retryBaseSeconds } from './retry-schedule.ts';
import { targetPolicy } from './targets.ts';

/** The delivery's settings, read once per cold start: a bad value fails there, not mid-delivery. */
export const deliverySettings: DeliverySettings = {
  policy: targetPolicy,
  retryBaseSeconds: retryBaseSeconds(),
};
