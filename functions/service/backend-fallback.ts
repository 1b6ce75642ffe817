import { openEndpoint } from '#shared/http/endpoint.ts';
import { unmatched } from '#shared/http/unmatched.ts';

// Every backend request that no other function serves: 404 or 405, in the contract's JSON.
export const handler = openEndpoint('backend-fallback', {}, async ({ request }) =>
  unmatched('backend', request.resource),
);
