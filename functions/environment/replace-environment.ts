import { replaceEnvironment } from '#shared/domain/environment/replace.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { ReplaceEnvironmentBody } from '#shared/schemas/environment/environment.ts';

export const handler = keyEndpoint(
  'replace-environment',
  { params: IdParams, body: ReplaceEnvironmentBody },
  async ({ caller, params, body, reply }) =>
    reply.ok({ variables: await replaceEnvironment(caller, params.id, body) }),
);
