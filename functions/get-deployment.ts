import { getDeployment } from '#shared/domain/deployments.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { ok } from '#shared/http/replies.ts';
import { IdParams } from '#shared/schemas/common.ts';

export const handler = keyEndpoint('get-deployment', { params: IdParams }, async ({ caller, params }) =>
  ok(await getDeployment(caller, params.id)),
);
