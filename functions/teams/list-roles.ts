import { keyEndpoint } from '#shared/http/endpoint.ts';
import { roleMatrix } from '#shared/model/roles.ts';

export const handler = keyEndpoint('list-roles', {}, async ({ reply }) => reply.ok({ roles: roleMatrix() }));
