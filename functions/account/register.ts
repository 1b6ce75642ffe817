import { register } from '#shared/domain/auth.ts';
import { openEndpoint } from '#shared/http/endpoint.ts';
import { RegisterBody } from '#shared/schemas/auth.ts';

export const handler = openEndpoint('register', { body: RegisterBody }, async ({ body, reply }) =>
  reply.json(201, await register(body)),
);
