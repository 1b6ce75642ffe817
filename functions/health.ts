import { tableAnswers } from '#shared/db/health.ts';
import { openEndpoint } from '#shared/http/endpoint.ts';

export const handler = openEndpoint('health', {}, async () =>
  (await tableAnswers())
    ? { status: 200, body: { status: 'ok', checks: { database: 'ok' } } }
    : { status: 503, body: { status: 'unavailable', checks: { database: 'unavailable' } } },
);
