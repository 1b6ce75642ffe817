import { tableAnswers } from '#shared/db/health.ts';
import { openEndpoint } from '#shared/http/endpoint.ts';

export const handler = openEndpoint('health', {}, async ({ reply }) =>
  (await tableAnswers())
    ? reply.ok({ status: 'ok', checks: { database: 'ok' } })
    : reply.json(503, { status: 'unavailable', checks: { database: 'unavailable' } }),
);
