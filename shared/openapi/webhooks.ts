import * as z from 'zod/mini';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { webhookEventBodies } from '#shared/schemas/webhooks/events.ts';

// The document's `webhooks` (OpenAPI 3.1): one entry per event type a subscription can receive, and
// `ping`, each a POST to the subscriber's URL whose body is that event's schema
// (shared/schemas/webhooks/events.ts) with the Standard Webhooks headers the delivery signs it with.

const DeliveryHeaders = z.strictObject({
  'webhook-id': z.string().register(z.globalRegistry, {
    description:
      'The same on every attempt of one event to one subscription: deduplicate on it (deliveries are at least once).',
    examples: ['msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'],
  }),
  'webhook-timestamp': z.string().register(z.globalRegistry, {
    description: 'When this attempt was signed, in epoch seconds; refuse one more than 5 minutes off.',
    examples: ['1795338960'],
  }),
  'webhook-signature': z.string().register(z.globalRegistry, {
    description:
      "`v1,` and the base64 HMAC-SHA256, keyed with the subscription's secret (the base64 after `whsec_`), of `<webhook-id>.<webhook-timestamp>.<body>`; several space-separated signatures may come, one valid is enough.",
    examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='],
  }),
});

const operationIdOf = (type: string): string =>
  `${type
    .split(/[._]/)
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('')}Webhook`;

/** Every delivery the service makes, by event type. */
export function webhookEntries(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    Object.entries(webhookEventBodies).map(([type, body]) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          summary: `The \`${type}\` event`,
          description: z.globalRegistry.get(body)?.description ?? '',
          tags: ['Webhooks'],
          security: [],
          requestParams: { header: DeliveryHeaders },
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
          responses: {
            '2XX': {
              description:
                'Received. Anything else (another status, no answer within 10 s, a redirect) is retried; see the Webhooks tag.',
            },
          },
        },
      },
    ]),
  );
}
