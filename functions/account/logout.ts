import { revokeCallingKey } from '#shared/domain/api-keys.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';

// The key that made this request is revoked: its next request is a 401.
export const handler = keyEndpoint('logout', {}, async ({ caller, reply }) => {
  await revokeCallingKey(caller);
  return reply.noContent();
});
