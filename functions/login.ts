import { login } from '#shared/domain/auth.ts';
import { openEndpoint } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/replies.ts';
import { LoginBody } from '#shared/schemas/auth.ts';

export const handler = openEndpoint('login', { body: LoginBody }, async ({ body }) => ok(await login(body)));
