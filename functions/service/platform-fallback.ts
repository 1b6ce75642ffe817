import { keyEndpoint } from '#shared/http/endpoint.ts';
import { unmatched } from '#shared/http/unmatched.ts';

// Every request of the versioned API that no other function serves: authenticated and counted like
// any other (the spec requires a key on every request), then answered 404 or 405.
export const handler = keyEndpoint('platform-fallback', {}, async ({ request }) =>
  unmatched('platform', request.resource),
);
