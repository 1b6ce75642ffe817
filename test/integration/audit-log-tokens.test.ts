import type { AuditActor } from '#shared/model/audit.ts';
import {
  callAs,
  expectLogged,
  logWith,
  newWatchedPerson,
  newWatchedTeam,
  requestIdOf,
  startAuditedGateway,
  uniqueAgent,
} from '../support/audit.ts';
import type { TestGateway } from '../support/gateway.ts';
import { call, type JsonResponse } from '../support/http.ts';

// A team token in the audit log (issue 35): what it changes is logged as the token's, and revoking a
// team's last token is logged like any revocation, the token made after it too.

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startAuditedGateway();
});

afterAll(async () => {
  await gateway?.close();
});

const idOf = (response: JsonResponse): string => (response.body as { id: string }).id;

it("records a team token's changes as the token's, with no person and no key", async () => {
  const base = gateway.baseUrl;
  const agent = uniqueAgent('ci-runner');
  const owner = await newWatchedPerson('Owner');
  const teamId = await newWatchedTeam(base, owner);
  const made = await call(`${base}/teams/${teamId}/tokens`, {
    method: 'POST',
    key: owner.key,
    json: { name: 'ci', scopes: ['read', 'write'], expiresInDays: 7 },
  });
  const { apiKey, token } = made.body as { apiKey: string; token: { id: string } };
  const project = await callAs(agent, `${base}/projects`, {
    method: 'POST',
    key: apiKey,
    json: { name: 'ci' },
  });
  const projectId = idOf(project);
  const deployment = await callAs(agent, `${base}/deployments`, {
    method: 'POST',
    key: apiKey,
    json: { projectId },
  });
  // Named as the team named it: a token's id is nothing a person knows it by.
  const tokenActor: AuditActor = { type: 'token', id: token.id, name: 'ci' };
  // The token's own creation is the walk's (by a person).
  await expectLogged(base, owner, teamId, agent, [
    {
      action: 'project.created',
      response: project,
      actor: tokenActor,
      target: { type: 'project', id: projectId },
      projectId,
    },
    {
      action: 'deployment.created',
      response: deployment,
      actor: tokenActor,
      target: { type: 'deployment', id: idOf(deployment) },
      projectId,
    },
  ]);
});

// Last in the file: should it fail again, the record it leaves would stop the poller on the key table.
it("records the revocation of a team's last token, and the token made after it", async () => {
  // The revocation empties the token ledger's `entries` map. The ledger once carried the change's
  // stamp, and the local stream's empty map (`{}`, which unmarshall refuses) then stopped every later
  // key or token event of the shard behind it.
  const base = gateway.baseUrl;
  const owner = await newWatchedPerson('Owner');
  const teamId = await newWatchedTeam(base, owner);
  const makeToken = async (name: string) => {
    const made = await call(`${base}/teams/${teamId}/tokens`, {
      method: 'POST',
      key: owner.key,
      json: { name, scopes: ['read'], expiresInDays: 1 },
    });
    return (made.body as { token: { id: string } }).token.id;
  };
  const only = await makeToken('only');
  const revoked = await call(`${base}/teams/${teamId}/tokens/${only}`, { method: 'DELETE', key: owner.key });
  expect(revoked.status).toBe(204);
  const after = await call(`${base}/teams/${teamId}/tokens`, {
    method: 'POST',
    key: owner.key,
    json: { name: 'after', scopes: ['read'], expiresInDays: 1 },
  });
  expect(after.status).toBe(201);
  const requestIds = [requestIdOf(revoked), requestIdOf(after)];
  const events = await logWith(base, owner.key, teamId, requestIds);
  expect(
    events.filter(({ requestId }) => requestIds.includes(requestId)).map(({ action }) => action),
  ).toEqual(['token.created', 'token.revoked']);
}, 150_000);
