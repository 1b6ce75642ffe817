import { eventually, newWatchedPerson, startAuditedGateway, watch } from '../../../test/support/audit.ts';
import type { TestGateway } from '../../../test/support/gateway.ts';
import { ForbiddenError, PlatformClient, type Schemas, ValidationError } from '../src/index.ts';

// The SDK and a team's audit log: `client.auditLog.list(teamId, filters)` is a list like any other
// (every page with `for await`, one with `.page()`), its filters sent as the query; only admins and
// owners may read it, never a team token. The audit log's stream consumer records this file's events.

type AuditEvent = Schemas['AuditEvent'];

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startAuditedGateway();
});
afterAll(async () => {
  await gateway.close();
});

const clientOf = (key: string) =>
  new PlatformClient({ baseUrl: gateway.baseUrl, backendUrl: gateway.backendUrl, apiKey: key });

async function every(events: AsyncIterable<AuditEvent>): Promise<AuditEvent[]> {
  const all: AuditEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Ada's team with three projects, Bob in it as a developer, refused a deletion; the whole log. */
async function teamWithHistory() {
  const [ada, bob] = await Promise.all([newWatchedPerson('Ada'), newWatchedPerson('Bob')]);
  const client = clientOf(ada.key);
  const team = await client.teams.create({ name: 'Acme' });
  watch(team.id);
  const { code } = await client.teams.createInvitation(team.id, { email: bob.email, role: 'developer' });
  await clientOf(bob.key).teams.acceptInvitation({ code });
  const projects = [];
  for (const name of ['web', 'api', 'docs']) {
    projects.push(await client.projects.create({ name }, { teamId: team.id }));
  }
  const [web] = projects;
  await expect(clientOf(bob.key).projects.delete(web?.id ?? '', { teamId: team.id })).rejects.toBeInstanceOf(
    ForbiddenError,
  );
  const log = await eventually(
    () => every(client.auditLog.list(team.id)),
    (events) => events.length >= 7,
  );
  return { ada, bob, client, teamId: team.id, web, log };
}

describe('client.auditLog.list', () => {
  it('walks every page newest first, and gives one page with its cursor', async () => {
    const { client, teamId, log } = await teamWithHistory();
    expect(log.map((event) => event.action)).toEqual([
      'project.deleted',
      'project.created',
      'project.created',
      'project.created',
      'member.joined',
      'invitation.created',
      'team.created',
    ]);
    expect(await every(client.auditLog.list(teamId, { limit: 2 }))).toEqual(log);

    const first = await client.auditLog.list(teamId, { limit: 3 }).page();
    expect(first).toEqual({ events: log.slice(0, 3), nextCursor: expect.any(String) });
    const second = await client.auditLog.list(teamId, { limit: 3 }).page(first.nextCursor);
    expect(second.events).toEqual(log.slice(3, 6));
  });

  it('sends its filters as the query', async () => {
    const { bob, client, teamId, web, log } = await teamWithHistory();
    const denied = await every(client.auditLog.list(teamId, { outcome: 'denied', actorId: bob.userId }));
    expect(denied).toEqual([
      expect.objectContaining({ action: 'project.deleted', outcome: 'denied', projectId: web?.id }),
    ]);
    const sinceSecond = await every(client.auditLog.list(teamId, { since: log[4]?.at ?? '' }));
    expect(sinceSecond).toEqual(log.slice(0, 5));
    const created = await every(
      client.auditLog.list(teamId, { action: 'project.created', projectId: web?.id }),
    );
    expect(created).toEqual([log[3]]);
    await expect(client.auditLog.list(teamId, { since: 'yesterday' }).page()).rejects.toMatchObject({
      constructor: ValidationError,
      field: 'since',
    });
  });

  it('is a ForbiddenError for a developer and for a team token', async () => {
    const { bob, client, teamId } = await teamWithHistory();
    await expect(clientOf(bob.key).auditLog.list(teamId).page()).rejects.toBeInstanceOf(ForbiddenError);
    const { apiKey } = await client.teamTokens.create(teamId, {
      name: 'ci',
      scopes: ['read'],
      expiresInDays: 1,
    });
    await expect(clientOf(apiKey).auditLog.list(teamId).page()).rejects.toBeInstanceOf(ForbiddenError);
  });
});
