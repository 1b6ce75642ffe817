import * as z from 'zod/mini';
import { hasControlCharacter } from '#shared/model/text.ts';
import { SUBSCRIBABLE_EVENTS } from '#shared/model/webhook-events.ts';
import { atMost } from '#shared/schemas/common.ts';
import { DisplayName } from '#shared/schemas/names.ts';

// Webhook subscriptions: what a client sends to make or change one. Where a URL may point (https
// only in the stack, never an internal address) is the domain's check (shared/webhooks/targets.ts):
// it depends on the deployment and on DNS, which a schema cannot see.

export const MAX_WEBHOOK_URL_LENGTH = 2048;

function isWebUrl(value: string): boolean {
  if (hasControlCharacter(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

const WebhookUrl = z
  .string()
  .check(
    atMost(MAX_WEBHOOK_URL_LENGTH),
    z.refine(isWebUrl, 'must be an absolute https URL without credentials'),
  )
  .register(z.globalRegistry, {
    description:
      'Where events are POSTed: an https URL (http only on a local run that allows it), at most 2048 characters, without user or password. Hosts that are or resolve to loopback, private, link-local, unique-local, unspecified or metadata addresses are refused (400).',
    examples: ['https://hooks.example.com/platform'],
  });

const WebhookEvents = z
  .array(z.enum(SUBSCRIBABLE_EVENTS))
  .check(z.minLength(1, 'must name at least one event'), z.maxLength(SUBSCRIBABLE_EVENTS.length))
  .register(z.globalRegistry, {
    description: 'The event types to receive, or `*` for all of them. Duplicates count once.',
    examples: [['deployment.ready', 'deployment.error']],
  });

const Enabled = z.boolean().register(z.globalRegistry, {
  description:
    'false pauses deliveries (pending retries are dropped); true resumes them and clears a disabled state.',
});

export const CreateWebhookBody = z
  .strictObject({
    url: WebhookUrl,
    events: WebhookEvents,
    description: z.optional(DisplayName),
  })
  .register(z.globalRegistry, {
    id: 'CreateWebhookBody',
    description: 'At most 10 subscriptions a user. Unknown fields are refused (400 naming the field).',
    examples: [
      { url: 'https://hooks.example.com/platform', events: ['deployment.ready'], description: 'slack' },
    ],
  });

export type CreateWebhookInput = z.output<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .strictObject({
    url: z.optional(WebhookUrl),
    events: z.optional(WebhookEvents),
    enabled: z.optional(Enabled),
    description: z.optional(z.nullable(DisplayName)),
  })
  .check(
    z.refine((body) => Object.keys(body).length > 0, {
      message: 'must change at least one of url, events, enabled, description',
      path: [],
    }),
  )
  .register(z.globalRegistry, {
    id: 'UpdateWebhookBody',
    description:
      'The fields to change, at least one; `description: null` removes it. Unknown fields are refused (400 naming the field).',
    examples: [{ enabled: true }, { events: ['*'] }],
  });

export type UpdateWebhookInput = z.output<typeof UpdateWebhookBody>;
