import { startLocalWebhookQueue } from '#infra/local/webhook-queue.ts';
import type { AuditActor } from '#shared/model/audit.ts';
import { routes } from '#shared/routes.ts';
import { deliverySettings } from '#shared/webhooks/settings.ts';
import type { Expected } from '../support/audit.ts';
import * as audit from '../support/audit.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import { startDnsServer } from '../support/dns-server.ts';
import type { TestGateway } from '../support/gateway.ts';
import type { JsonResponse } from '../support/http.ts';
import { overrideSettings } from '../support/settings.ts';
import type { TestPerson } from '../support/teams.ts';
import type { WebhookReceiver } from '../support/webhook-receiver.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

// Every kind of change a route makes, logged once in its team with who made it and from where
// (issue 35). The walk drives one request of every row of shared/routes.ts that names an `audit`
// action, so a new audited row without a request here fails the walk. Then the log of every team of
// this file is searched for every secret the walk was given or shown.

type LocalQueue = import('#infra/local/webhook-queue.ts').LocalWebhookQueue;

let gateway: TestGateway;
let queue: LocalQueue;
let dns: TestDnsServer;
let receiver: WebhookReceiver;
let restoreSettings: () => void;
let routeActions: string[];

/** Every team this file made: the secret scan reads all their logs. */
const teams: { teamId: string; reader: TestPerson }[] = [];
/** Every secret the file's requests sent or were shown. */
const secrets: string[] = [];

beforeAll(async () => {
  dns = await startDnsServer();
  restoreSettings = overrideSettings({
    DNS_SERVERS: dns.address,
    DOMAIN_TARGET: 'edge.platform.test',
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_BASE_SECONDS: '0.002',
  });
  routeActions = [
    ...new Set(routes.flatMap((route) => ('audit' in route && route.audit ? [route.audit] : []))),
  ];
  gateway = await audit.startAuditedGateway();
  queue = startLocalWebhookQueue(deliverySettings());
  receiver = await startReceiver([204]);
}, 30_000);

afterAll(async () => {
  await queue?.stop();
  await receiver?.close();
  await gateway?.close();
  await dns?.close();
  restoreSettings();
});

const idOf = (response: JsonResponse): string => (response.body as { id: string }).id;

it('records one event for a request of every audited route, with its user, key, request, target and changes', async () => {
  const base = gateway.baseUrl;
  const agent = audit.uniqueAgent();
  const send = (key: string, path: string, options: { method?: string; json?: unknown } = {}) =>
    audit.callAs(agent, `${base}${path}`, { key, ...options });

  const owner = await audit.newWatchedPerson('Owner');
  const member = await audit.newWatchedPerson('Member');
  const ownerActor: AuditActor = {
    type: 'user',
    id: owner.userId,
    email: owner.email,
    keyId: await audit.keyIdOf(base, owner.key),
  };
  const memberActor: AuditActor = {
    type: 'user',
    id: member.userId,
    email: member.email,
    keyId: await audit.keyIdOf(base, member.key),
  };
  const expected: Expected[] = [];
  const logged = (entry: Omit<Expected, 'actor'> & { actor?: AuditActor }) => {
    expected.push({ actor: ownerActor, ...entry });
    return entry.response;
  };

  // The team and its people.
  const made = await send(owner.key, '/teams', { method: 'POST', json: { name: 'Walk' } });
  const teamId = idOf(made);
  teams.push({ teamId, reader: owner });
  const team = { type: 'team', id: teamId };
  const inTeam = (path: string) => `${path}${path.includes('?') ? '&' : '?'}teamId=${teamId}`;
  logged({ action: 'team.created', response: made, target: team });
  logged({
    action: 'team.renamed',
    response: await send(owner.key, `/teams/${teamId}`, { method: 'PATCH', json: { name: 'Walked' } }),
    target: team,
    changes: { name: { from: 'Walk', to: 'Walked' } },
  });
  const invited = await send(owner.key, `/teams/${teamId}/invitations`, {
    method: 'POST',
    json: { email: member.email, role: 'developer' },
  });
  const { code } = invited.body as { code: string };
  secrets.push(code);
  logged({
    action: 'invitation.created',
    response: invited,
    target: { type: 'invitation', id: idOf(invited) },
  });
  const memberTarget = { type: 'member', id: member.userId };
  logged({
    action: 'member.joined',
    response: await send(member.key, '/invitations/accept', { method: 'POST', json: { code } }),
    actor: memberActor,
    target: memberTarget,
  });
  logged({
    action: 'member.role_changed',
    response: await send(owner.key, `/teams/${teamId}/members/${member.userId}`, {
      method: 'PATCH',
      json: { role: 'admin' },
    }),
    target: memberTarget,
    changes: { role: { from: 'developer', to: 'admin' } },
  });
  const other = await send(owner.key, `/teams/${teamId}/invitations`, {
    method: 'POST',
    json: { email: `${agent.replace(/\W/g, '')}@example.test`, role: 'viewer' },
  });
  secrets.push((other.body as { code: string }).code);
  logged({ action: 'invitation.created', response: other, target: { type: 'invitation', id: idOf(other) } });
  logged({
    action: 'invitation.revoked',
    response: await send(owner.key, `/teams/${teamId}/invitations/${idOf(other)}`, { method: 'DELETE' }),
    target: { type: 'invitation', id: idOf(other) },
  });

  // Tokens and keys: their secrets are shown once, and never logged. Two of each, one revoked (the
  // revocation of the last one is audit-log-tokens.test.ts's).
  const newToken = async (name: string) => {
    const response = await send(owner.key, `/teams/${teamId}/tokens`, {
      method: 'POST',
      json: { name, scopes: ['read', 'write'], expiresInDays: 7 },
    });
    const { apiKey, token } = response.body as { apiKey: string; token: { id: string } };
    secrets.push(apiKey);
    // The token, not the ledger written in the same transaction (which once took the event).
    logged({ action: 'token.created', response, target: { type: 'token', id: token.id } });
    return token.id;
  };
  const tokenId = await newToken('ci');
  await newToken('kept');
  logged({
    action: 'token.revoked',
    response: await send(owner.key, `/teams/${teamId}/tokens/${tokenId}`, { method: 'DELETE' }),
    target: { type: 'token', id: tokenId },
  });
  const newKey = async (name: string) => {
    const response = await send(owner.key, inTeam('/keys'), {
      method: 'POST',
      json: { name, scopes: ['build'] },
    });
    const { apiKey, key } = response.body as { apiKey: string; key: { id: string } };
    secrets.push(apiKey);
    // As for tokens: the key, not the key ledger.
    logged({ action: 'key.created', response, target: { type: 'key', id: key.id } });
    return { apiKey, id: key.id };
  };
  const { apiKey: buildKey, id: buildKeyId } = await newKey('build');
  await newKey('kept');
  const builderActor: AuditActor = { type: 'user', id: owner.userId, email: owner.email, keyId: buildKeyId };

  // A project, its variables, deployments, production, webhooks and domains.
  const projectMade = await send(owner.key, inTeam('/projects'), { method: 'POST', json: { name: 'web' } });
  const projectId = idOf(projectMade);
  const project = { type: 'project', id: projectId };
  logged({ action: 'project.created', response: projectMade, target: project, projectId });
  logged({
    action: 'project.updated',
    response: await send(owner.key, inTeam(`/projects/${projectId}`), {
      method: 'PATCH',
      json: { name: 'site' },
    }),
    target: project,
    projectId,
    changes: { name: { from: 'web', to: 'site' } },
  });
  const env = inTeam(`/projects/${projectId}/env`);
  const environment = { type: 'environment', id: projectId };
  secrets.push('audit-secret-first-Q7x2', 'audit-secret-second-R8pz', 'audit-secret-replaced-Kd41');
  const variable = await send(owner.key, env, {
    method: 'POST',
    json: { key: 'TOKEN', value: 'audit-secret-first-Q7x2', type: 'secret' },
  });
  logged({ action: 'env.variable_created', response: variable, target: environment, projectId });
  const variableUrl = inTeam(`/projects/${projectId}/env/${idOf(variable)}`);
  logged({
    action: 'env.variable_updated',
    response: await send(owner.key, variableUrl, {
      method: 'PATCH',
      json: { value: 'audit-secret-second-R8pz' },
    }),
    target: environment,
    projectId,
  });
  logged({
    action: 'env.variable_deleted',
    response: await send(owner.key, variableUrl, { method: 'DELETE' }),
    target: environment,
    projectId,
  });
  logged({
    action: 'env.replaced',
    response: await send(owner.key, env, {
      method: 'PUT',
      json: { variables: [{ key: 'TOKEN', value: 'audit-secret-replaced-Kd41', type: 'secret' }] },
    }),
    target: environment,
    projectId,
  });

  // Preview deployments: made ready, they move production only when promoted.
  const deployment = async () => {
    const response = await send(owner.key, inTeam('/deployments'), {
      method: 'POST',
      json: { projectId, target: 'preview' },
    });
    logged({
      action: 'deployment.created',
      response,
      target: { type: 'deployment', id: idOf(response) },
      projectId,
    });
    return idOf(response);
  };
  const report = async (id: string, status: string) =>
    logged({
      action: 'deployment.event_reported',
      response: await send(owner.key, inTeam(`/deployments/${id}/events`), {
        method: 'POST',
        json:
          status === 'ready'
            ? { status, url: `https://${id.slice(-8).toLowerCase()}.example.app` }
            : { status },
      }),
      target: { type: 'deployment', id },
      projectId,
      changes: { status: { from: status === 'ready' ? 'building' : 'queued', to: status } },
    });
  const first = await deployment();
  await report(first, 'building');
  logged({
    action: 'deployment.logs_appended',
    response: await send(buildKey, inTeam(`/deployments/${first}/logs`), {
      method: 'POST',
      json: { lines: [{ text: 'npm ci' }] },
    }),
    actor: builderActor,
    target: { type: 'deployment', id: first },
    // Though neither the log's head nor the path names it: the append notes the deployment's project.
    projectId,
  });
  const buildEnv = await send(buildKey, inTeam(`/deployments/${first}/build-env`));
  expect(buildEnv.text).toContain('audit-secret-replaced-Kd41');
  logged({
    action: 'deployment.build_env_read',
    response: buildEnv,
    actor: builderActor,
    target: { type: 'deployment', id: first },
    projectId,
  });
  await report(first, 'ready');
  logged({
    action: 'production.promoted',
    response: await send(owner.key, inTeam(`/projects/${projectId}/promote`), {
      method: 'POST',
      json: { deploymentId: first },
    }),
    target: project,
    projectId,
    // Auto-promotion was on (the API shows it on) and stays on: not a change.
    changes: { production: { from: null, to: first } },
  });
  const second = await deployment();
  await report(second, 'building');
  await report(second, 'ready');
  logged({
    action: 'production.promoted',
    response: await send(owner.key, inTeam(`/projects/${projectId}/promote`), {
      method: 'POST',
      json: { deploymentId: second },
    }),
    target: project,
    projectId,
    changes: { production: { from: first, to: second } },
  });
  logged({
    action: 'production.rolled_back',
    response: await send(owner.key, inTeam(`/projects/${projectId}/rollback`), { method: 'POST', json: {} }),
    target: project,
    projectId,
    // A rollback pauses auto-promotion.
    changes: { production: { from: second, to: first }, autoPromotion: { from: true, to: false } },
  });
  const third = await deployment();
  logged({
    action: 'deployment.canceled',
    response: await send(owner.key, inTeam(`/deployments/${third}/cancel`), { method: 'POST' }),
    target: { type: 'deployment', id: third },
    projectId,
    changes: { status: { from: 'queued', to: 'canceled' } },
  });

  const hookMade = await send(owner.key, inTeam('/webhooks'), {
    method: 'POST',
    json: { url: receiver.url, events: ['*'] },
  });
  const { secret: signingSecret, webhook } = hookMade.body as { secret: string; webhook: { id: string } };
  secrets.push(signingSecret);
  const hook = { type: 'webhook', id: webhook.id };
  logged({ action: 'webhook.created', response: hookMade, target: hook });
  const movedUrl = `${receiver.url}/moved`;
  logged({
    action: 'webhook.updated',
    response: await send(owner.key, inTeam(`/webhooks/${webhook.id}`), {
      method: 'PATCH',
      json: { url: movedUrl },
    }),
    target: hook,
    changes: { url: { from: receiver.url, to: movedUrl } },
  });
  logged({
    action: 'webhook.tested',
    response: await send(owner.key, inTeam(`/webhooks/${webhook.id}/test`), { method: 'POST' }),
    target: hook,
  });
  logged({
    action: 'webhook.deleted',
    response: await send(owner.key, inTeam(`/webhooks/${webhook.id}`), { method: 'DELETE' }),
    target: hook,
  });

  const name = `${agent.split('/')[1]?.slice(0, 8)}.example.com`;
  const domain = { type: 'domain', id: name };
  const domainUrl = `/projects/${projectId}/domains/${name}`;
  const added = await send(owner.key, inTeam(`/projects/${projectId}/domains`), {
    method: 'POST',
    json: { name },
  });
  logged({ action: 'domain.created', response: added, target: domain, projectId });
  // Checked with no record in DNS: still pending, a check; with it there, verified.
  logged({
    action: 'domain.checked',
    response: await send(owner.key, inTeam(`${domainUrl}/verify`), { method: 'POST' }),
    target: domain,
    projectId,
  });
  const { records } = added.body as { records: { requiredValue: string }[] };
  dns.setTxt(`_platform-challenge.${name}`, [records[0]?.requiredValue ?? '']);
  logged({
    action: 'domain.verified',
    response: await send(owner.key, inTeam(`${domainUrl}/verify`), { method: 'POST' }),
    target: domain,
    projectId,
    changes: { status: { from: 'pending', to: 'verified' } },
  });
  logged({
    action: 'domain.deleted',
    response: await send(owner.key, inTeam(domainUrl), { method: 'DELETE' }),
    target: domain,
    projectId,
  });

  // The end of it all: the project, the key, the member.
  logged({
    action: 'project.deleted',
    response: await send(owner.key, inTeam(`/projects/${projectId}`), { method: 'DELETE' }),
    target: project,
    projectId,
  });
  logged({
    action: 'key.revoked',
    response: await send(owner.key, inTeam(`/keys/${buildKeyId}`), { method: 'DELETE' }),
    target: { type: 'key', id: buildKeyId },
  });
  logged({
    action: 'member.removed',
    response: await send(owner.key, `/teams/${teamId}/members/${member.userId}`, { method: 'DELETE' }),
    target: memberTarget,
  });

  await audit.expectLogged(base, owner, teamId, agent, expected);
  // Every audited route was driven, but deleting a team (its log is no longer readable through the
  // API; audit-log-team-deleted.test.ts reads it from the store).
  const driven = new Set(expected.map(({ action }) => action));
  expect(routeActions.filter((action) => !driven.has(action)).sort()).toEqual(['team.deleted']);
}, 120_000);

it('finds no secret in any event of the teams of this file: variable values, signing secrets, keys, tokens, codes', async () => {
  expect(teams.length).toBeGreaterThan(0);
  expect(secrets.length).toBeGreaterThanOrEqual(10);
  for (const { teamId, reader } of teams) {
    const text = JSON.stringify(await audit.readLog(gateway.baseUrl, reader.key, teamId));
    expect(text).toContain(teamId);
    // Each secret whole, and its tail (a secret stripped of its prefix is still the secret).
    const found = secrets.filter((secret) => text.includes(secret) || text.includes(secret.slice(-16)));
    expect(found).toEqual([]);
  }
});
