import { randomUUID } from 'node:crypto';
import { startLocalSchedules } from '#infra/local/schedules.ts';
import type { AuditEvent } from '#shared/model/audit.ts';
import { clock } from '#shared/runtime/clock.ts';
import * as audit from '../support/audit.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import { startDnsServer } from '../support/dns-server.ts';
import type { TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { createOwnDomainsTable, ownDomainsTableSettings } from '../support/own-domains-table.ts';
import { overrideSettings } from '../support/settings.ts';
import type { TestPerson } from '../support/teams.ts';

// The platform's own moves in a team's audit log (issue 35), made by `system`: a production
// deployment promoted because it became ready, a pending domain verified or expired by the
// background checks. The file has a domains table of its own (as domains.test.ts does): moving the
// clock makes every pending domain of the table due, which must not reach another file's domains.

type Repeating = import('#infra/local/every.ts').Repeating;

const MINUTE = 60_000;
const WEEK = 7 * 24 * 60 * MINUTE;
const SYSTEM = { type: 'system', id: 'platform' };

let dns: TestDnsServer;
let gateway: TestGateway;
let schedules: Repeating;
let restoreSettings: () => void;

beforeAll(async () => {
  dns = await startDnsServer();
  restoreSettings = overrideSettings({
    DNS_SERVERS: dns.address,
    DOMAIN_TARGET: 'edge.platform.test',
    DOMAIN_CHECK_TIMEOUT_MS: '1000',
    ...ownDomainsTableSettings(),
  });
  await createOwnDomainsTable();
  gateway = await audit.startAuditedGateway(['auto-promote']);
  schedules = await startLocalSchedules({ intervalMs: 100 });
}, 30_000);

const realNow = Date.now;
afterEach(() => {
  clock.now = realNow;
});
afterAll(async () => {
  await schedules?.stop();
  await gateway?.close();
  await dns?.close();
  restoreSettings();
});

const url = (path: string) => `${gateway.baseUrl}${path}`;
const idOf = (body: unknown): string => (body as { id: string }).id;

/** A team of a new owner, with a project. */
async function teamWithProject(): Promise<{ owner: TestPerson; teamId: string; projectId: string }> {
  const owner = await audit.newWatchedPerson('Owner');
  const teamId = await audit.newWatchedTeam(gateway.baseUrl, owner);
  const made = await call(url(`/projects?teamId=${teamId}`), {
    method: 'POST',
    key: owner.key,
    json: { name: 'web' },
  });
  expect(made.status).toBe(201);
  return { owner, teamId, projectId: idOf(made.body) };
}

/** The team's log once an event passes `wanted`. */
const logOnce = (owner: TestPerson, teamId: string, wanted: (event: AuditEvent) => boolean) =>
  audit.eventually(
    () => audit.readLog(gateway.baseUrl, owner.key, teamId),
    (events) => events.some(wanted),
  );

it('records an automatic promotion as the platform’s, under the request of the report that made the deployment ready', async () => {
  const { owner, teamId, projectId } = await teamWithProject();
  const agent = audit.uniqueAgent('builder');
  const deployed = await call(url(`/deployments?teamId=${teamId}`), {
    method: 'POST',
    key: owner.key,
    json: { projectId },
  });
  expect(deployed.status).toBe(201);
  const deploymentId = idOf(deployed.body);
  const report = (json: Record<string, unknown>) =>
    audit.callAs(agent, url(`/deployments/${deploymentId}/events?teamId=${teamId}`), {
      method: 'POST',
      key: owner.key,
      json,
    });
  expect((await report({ status: 'building' })).status).toBe(200);
  const ready = await report({ status: 'ready', url: 'https://ready.example.app' });
  expect(ready.status).toBe(200);
  const requestId = audit.requestIdOf(ready);

  // The two events come from two tables' streams, which the recorder may read in different rounds:
  // the log is read until it holds both (CI run 53 read it between them).
  const events = await audit.eventually(
    () => audit.readLog(gateway.baseUrl, owner.key, teamId),
    (all) =>
      ['deployment.event_reported', 'production.promoted'].every((wanted) =>
        all.some(({ action, requestId: of }) => action === wanted && of === requestId),
      ),
  );
  const ofReport = events.filter((event) => event.requestId === requestId);
  const common = {
    id: expect.stringMatching(/^aud_/),
    teamId,
    at: audit.ISO,
    outcome: 'success',
    projectId,
    requestId,
    ip: '127.0.0.1',
    userAgent: agent,
  };
  expect(ofReport.sort((a, b) => a.action.localeCompare(b.action))).toEqual([
    {
      ...common,
      action: 'deployment.event_reported',
      actor: {
        type: 'user',
        id: owner.userId,
        email: owner.email,
        keyId: await audit.keyIdOf(gateway.baseUrl, owner.key),
      },
      target: { type: 'deployment', id: deploymentId },
      changes: { status: { from: 'building', to: 'ready' } },
    },
    {
      ...common,
      action: 'production.promoted',
      actor: SYSTEM,
      target: { type: 'project', id: projectId },
      // Only the pointer: automatic promotion was on (as the API shows it) and stays on.
      changes: { production: { from: null, to: deploymentId } },
    },
  ]);
  // Once, however many consumers saw the deployment become ready.
  const byPlatform = await audit.readLog(gateway.baseUrl, owner.key, teamId, 'actorId=platform');
  expect(byPlatform.map(({ action }) => action)).toEqual(['production.promoted']);
});

describe('background domain checks', () => {
  async function pendingDomain() {
    const setup = await teamWithProject();
    const name = `s${randomUUID().slice(0, 8)}.example.com`;
    const added = await call(url(`/projects/${setup.projectId}/domains?teamId=${setup.teamId}`), {
      method: 'POST',
      key: setup.owner.key,
      json: { name },
    });
    expect(added.status).toBe(201);
    const { records, createdAt } = added.body as { records: { requiredValue: string }[]; createdAt: string };
    return { ...setup, name, requiredValue: records[0]?.requiredValue ?? '', createdAt };
  }

  /** What the platform's own check leaves: no request, no address, no agent. */
  const systemEvent = (teamId: string, projectId: string, name: string, action: string, to: string) => ({
    id: expect.stringMatching(/^aud_/),
    teamId,
    at: audit.ISO,
    action,
    outcome: 'success',
    actor: SYSTEM,
    target: { type: 'domain', id: name },
    projectId,
    requestId: '',
    ip: '',
    userAgent: '',
    changes: { status: { from: 'pending', to } },
  });

  it('records a domain the platform verified by itself as the platform’s', async () => {
    const { owner, teamId, projectId, name, requiredValue } = await pendingDomain();
    dns.setTxt(`_platform-challenge.${name}`, [requiredValue]);
    clock.now = () => realNow() + MINUTE + 1000;
    const events = await logOnce(owner, teamId, ({ action }) => action === 'domain.verified');
    expect(events.filter(({ actor }) => actor.type === 'system')).toEqual([
      systemEvent(teamId, projectId, name, 'domain.verified', 'verified'),
    ]);
  });

  it('records a domain the platform expired as the platform’s', async () => {
    const { owner, teamId, projectId, name, createdAt } = await pendingDomain();
    clock.now = () => Date.parse(createdAt) + WEEK + 1000;
    const events = await logOnce(owner, teamId, ({ action }) => action === 'domain.expired');
    expect(events.filter(({ actor }) => actor.type === 'system')).toEqual([
      systemEvent(teamId, projectId, name, 'domain.expired', 'expired'),
    ]);
  });
});
