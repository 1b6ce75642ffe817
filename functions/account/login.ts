import { login } from '#shared/domain/auth.ts';
import { openEndpoint } from '#shared/http/endpoint.ts';
import { LoginBody } from '#shared/schemas/auth.ts';

export const handler = openEndpoint('login', { body: LoginBody }, async ({ body, reply }) =>
  reply.ok(await login(body)),
);
