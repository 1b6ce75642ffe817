import { register } from '#shared/domain/auth.ts';
import { openEndpoint } from '#shared/http/endpoint.ts';
import { RegisterBody } from '#shared/schemas/auth.ts';

export const handler = openEndpoint('register', { body: RegisterBody }, async ({ body }) => ({
  status: 201,
  body: await register(body),
}));
