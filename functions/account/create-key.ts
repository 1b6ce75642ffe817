import { createKey } from '#shared/domain/api-keys.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { CreateKeyBody } from '#shared/schemas/keys.ts';

export const handler = keyEndpoint(
  'create-key',
  { body: CreateKeyBody },
  async ({ caller, body, request, reply }) => {
    const issued = await createKey(caller, body);
    return reply.createdWithId({ apiKey: issued.apiKey, key: issued.key }, request.path, issued.key.id);
  },
);
