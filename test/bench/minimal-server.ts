import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ItemRead } from '#shared/db/batch-get.ts';
import { putDeployment } from '#shared/db/deployments/writes.ts';
import { headOnProject } from '#shared/db/environment/variables.ts';
import { countKeyRequest } from '#shared/db/keys/admission-counter.ts';
import { projectRead, toProject } from '#shared/db/projects.ts';
import { getItem, getWithMembership } from '#shared/db/teams/with-membership.ts';
import { recordIsGenuine } from '#shared/domain/key-identity.ts';
import { hashApiKey } from '#shared/model/api-key-format.ts';
import { newId } from '#shared/model/ids.ts';
import { isoNow, nowSeconds } from '#shared/runtime/clock.ts';
import { config } from '#shared/runtime/config.ts';

// The warm floor: a bare node:http server that makes the DynamoDB calls the service makes for
// GET /v1/projects/{id} and POST /v1/deployments, through the same store modules and the same
// clients (one keep-alive pool), and nothing else: no event, no middleware, no validation, no
// rate-limit headers. The bench checks that it sends the same commands as the gateway. In a shared
// team (`?teamId=`) the project is read with the caller's membership, as the service reads it.

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const key = req.headers.authorization?.slice('Bearer '.length) ?? '';
  const count = await countKeyRequest(
    hashApiKey(key),
    {
      nowSeconds: nowSeconds(),
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
      defaultLimit: config.RATE_LIMIT_MAX,
    },
    recordIsGenuine,
  );
  if (count.outcome !== 'counted' || !recordIsGenuine(count.key))
    return send(res, 401, { error: 'unauthorized' });
  const { userId } = count.key;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const teamId = url.searchParams.get('teamId');
  const partition = teamId ?? userId;
  /** The item, and whether the caller may see it: in a shared team only a member may. */
  const readInTeam = async (read: ItemRead) => {
    if (teamId === null) return getItem(read);
    const { item, role } = await getWithMembership(read, teamId, userId);
    return role === undefined ? undefined : item;
  };
  const projectPath = /^\/v1\/projects\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && projectPath?.[1]) {
    const item = await readInTeam(projectRead(partition, projectPath[1]));
    return item ? send(res, 200, toProject(item)) : send(res, 404, { error: 'not_found' });
  }
  if (req.method === 'POST' && url.pathname === '/v1/deployments') {
    const body = await readJson(req);
    // The project read consistently, with the copy of its variables' head: the bench's project has none.
    const item = await readInTeam(projectRead(partition, String(body.projectId), { consistent: true }));
    if (!item) return send(res, 404, { error: 'not_found' });
    const project = toProject(item);
    if (headOnProject(item) !== null) return send(res, 500, { error: 'the bench project has variables' });
    const now = isoNow();
    const branch = typeof body.branch === 'string' ? body.branch : project.productionBranch;
    const deployment = {
      id: newId('dpl'),
      projectId: project.id,
      branch,
      status: 'queued' as const,
      target: branch === project.productionBranch ? ('production' as const) : ('preview' as const),
      createdAt: now,
      updatedAt: now,
    };
    await putDeployment(partition, deployment);
    return send(res, 201, deployment);
  }
  send(res, 404, { error: 'not_found' });
}

export function createMinimalServer(): Server {
  return createServer((req, res) => {
    answer(req, res).catch(() => send(res, 500, { error: 'internal_error' }));
  });
}
