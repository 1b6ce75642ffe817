import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { ENVIRONMENT_HEAD_KEY, tableName } from '#shared/db/tables.ts';
import { signIdentity } from '#shared/domain/key-identity.ts';
import { generateApiKey, hashApiKey } from '#shared/model/api-key-format.ts';
import { newId } from '#shared/model/ids.ts';
import { windowAt } from '#shared/model/rate-limit.ts';
import { config } from '#shared/runtime/config.ts';
import { seal } from '#shared/runtime/envelope.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { uniqueEmail } from '../support/names.ts';

// A store written before teams existed (the commit before f398913): a user, their key, a project with
// a variable, a deployment and a webhook, each item put exactly as that code put it (the shapes of
// its shared/db/*.ts), all under the user's id. Nothing is run over them: the user finds it all in
// their personal team, with the key they had.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const put = (table: Parameters<typeof tableName>[0], item: Record<string, unknown>) =>
  db.send(new PutCommand({ TableName: tableName(table), Item: item }));

/** Writes one pre-teams user's account and things; what the API should show of them. */
async function storeWrittenBeforeTeams() {
  const userId = newId('usr');
  const email = uniqueEmail('early');
  const at = '2026-01-02T03:04:05.000Z';
  // shared/db/users.ts insertUser: the email's marker and the profile.
  await put('users', { pk: `EMAIL#${email}`, userId, passwordHash: 'unusable' });
  await put('users', {
    pk: `USER#${userId}`,
    id: userId,
    email,
    name: 'Early',
    role: 'member',
    createdAt: at,
    listing: 'USER',
  });

  // shared/domain/api-keys.ts issueApiKey, as login issued it (its identity signed as key-identity/1).
  const apiKey = generateApiKey();
  const now = Math.floor(Date.now() / 1000);
  const identity = {
    keyHash: hashApiKey(apiKey),
    keyId: newId('key'),
    userId,
    role: 'member',
    scopes: ['read', 'write'],
    expiresAt: now + config.API_KEY_TTL_SECONDS,
  };
  await put('apiKeys', {
    ...identity,
    name: 'login',
    prefix: apiKey.slice(0, 9),
    last4: apiKey.slice(-4),
    createdAt: new Date(now * 1000).toISOString(),
    windowStart: windowAt(now, config.RATE_LIMIT_WINDOW_SECONDS).start,
    windowCount: 0,
    identitySignature: await signIdentity(identity),
  });

  // shared/db/projects.ts putProject, then one variable's change: the head's copy on the project.
  const project = {
    id: newId('prj'),
    name: 'early-web',
    repository: null,
    productionBranch: 'main',
    createdAt: at,
    updatedAt: at,
  };
  const version = newId('evs');
  const variable = {
    id: newId('env'),
    key: 'API_URL',
    targets: ['production', 'preview', 'development'],
    type: 'plain',
    createdAt: at,
    updatedAt: at,
  };
  await put('projects', { ownerId: userId, ...project, variablesHead: { version, count: 1, revision: 1 } });
  // shared/db/environment/variables.ts applyChange: the head (with the owner) and the variable, sealed.
  await put('environment', {
    projectId: project.id,
    sk: ENVIRONMENT_HEAD_KEY,
    ownerId: userId,
    version,
    count: 1,
    revision: 1,
    lastChange: {
      change: 'created',
      variables: [{ key: variable.key, targets: variable.targets, type: variable.type }],
      at,
      revision: 1,
    },
  });
  await put('environment', {
    projectId: project.id,
    sk: `var#${version}#${variable.id}`,
    ...variable,
    sealed: await seal('https://api.example.com', {
      project: project.id,
      variable: variable.id,
      type: 'plain',
    }),
  });

  // shared/db/deployments/writes.ts putDeployment: a production deployment, its first event inside.
  const deployment = {
    id: newId('dpl'),
    projectId: project.id,
    branch: 'main',
    status: 'queued',
    target: 'production',
    createdAt: at,
    updatedAt: at,
  };
  await put('deployments', {
    ownerId: userId,
    ...deployment,
    promotesOver: null,
    events: [{ status: 'queued', at }],
  });

  // shared/db/webhooks/webhooks.ts putWebhook: the owner's count and the subscription, its secret beside it.
  const webhook = {
    id: newId('whk'),
    url: 'https://hooks.example.com/early',
    events: ['deployment.ready'],
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    createdAt: at,
    updatedAt: at,
  };
  await put('webhooks', { ownerId: userId, id: 'count', subscriptions: 1 });
  await put('webhooks', {
    ownerId: userId,
    ...webhook,
    secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
  });

  return {
    userId,
    createdAt: at,
    key: apiKey,
    keyId: identity.keyId,
    project: { ...project, production: null, autoPromotion: true },
    variable: { ...variable, value: 'https://api.example.com' },
    deployment,
    webhook: { ...webhook, description: null },
  };
}

describe('a user whose things were stored before teams existed', () => {
  it('finds them all in their personal team, with the key they had', async () => {
    const early = await storeWrittenBeforeTeams();
    const get = (path: string) => call(`${gateway.baseUrl}${path}`, { key: early.key });
    const personalId = `team_${early.userId.slice('usr_'.length)}`;

    const teams = await get('/teams');
    expect(teams.status).toBe(200);
    expect(teams.body).toEqual({
      teams: [
        {
          id: personalId,
          name: 'Early',
          personal: true,
          role: 'owner',
          // The user's own dates: a personal team is derived from its user, never stored.
          createdAt: early.createdAt,
          updatedAt: early.createdAt,
        },
      ],
      nextCursor: null,
    });
    // Without ?teamId= and with the personal team's id, the same.
    for (const team of ['', `?teamId=${personalId}`]) {
      expect((await get(`/projects${team}`)).body).toEqual({ projects: [early.project], nextCursor: null });
      expect((await get(`/projects/${early.project.id}${team}`)).body).toEqual(early.project);
      expect((await get(`/deployments${team}`)).body).toEqual({
        deployments: [early.deployment],
        nextCursor: null,
      });
      expect((await get(`/deployments/${early.deployment.id}${team}`)).body).toEqual(early.deployment);
      expect((await get(`/webhooks${team}`)).body).toEqual({ webhooks: [early.webhook], nextCursor: null });
      expect((await get(`/projects/${early.project.id}/env${team}`)).body).toEqual({
        variables: [early.variable],
        nextCursor: null,
      });
    }
    expect(((await get('/keys')).body as { keys: { id: string }[] }).keys.map(({ id }) => id)).toEqual([
      early.keyId,
    ]);

    // And goes on working there: a deployment of the old project builds with its old variable.
    const deployed = await call(`${gateway.baseUrl}/deployments`, {
      method: 'POST',
      key: early.key,
      json: { projectId: early.project.id },
    });
    expect(deployed.status).toBe(201);
    expect(deployed.body).toMatchObject({ projectId: early.project.id, target: 'production' });
  });
});
