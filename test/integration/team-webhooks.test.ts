import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook as Verifier } from 'standardwebhooks';
import type { TestGateway } from '../support/gateway.ts';
import type { JsonResponse } from '../support/http.ts';
import { call } from '../support/http.ts';
import type { TestPerson } from '../support/teams.ts';
import { join, newPerson, newTeam } from '../support/teams.ts';
import { startWebhookDelivery, type WebhookDelivery } from '../support/webhook-delivery.ts';
import type { WebhookReceiver } from '../support/webhook-receiver.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

// A shared team's webhooks over HTTP: they receive the events of the team's projects, whichever
// member made them, and nothing of any other team's, the members' personal teams included. The
// fan-out runs as in webhooks.test.ts (test/support/webhook-delivery.ts), fed only the records
// stored under this file's teams and people.

let delivery: WebhookDelivery;
let gateway: TestGateway;
let queue: WebhookDelivery['queue'];
const receivers: WebhookReceiver[] = [];

/** The partitions (team ids, and user ids for personal teams) whose records this file's poller takes. */
const partitions = new Set<string>();
const ownPartition = (record: DynamoDBRecord): boolean => {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  const owner = image?.ownerId?.S;
  return owner !== undefined && partitions.has(owner);
};

beforeAll(async () => {
  delivery = await startWebhookDelivery({
    accepts: ownPartition,
    // Not the audit log's recorder: its seven streams would double what this file asks of DynamoDB Local.
    consumers: (all) => all.filter(({ handler }) => handler !== 'record-audit-events'),
  });
  ({ gateway, queue } = delivery);
  // Loaded after the delivery's settings, which they read when they load.
}, 30_000);

afterAll(async () => {
  await delivery?.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

interface Delivered {
  type: string;
  timestamp: string;
  data: { id: string };
}

const post = (path: string, who: TestPerson, json: unknown): Promise<JsonResponse> =>
  call(`${gateway.baseUrl}${path}`, { method: 'POST', key: who.key, json });

async function created(path: string, who: TestPerson, json: unknown): Promise<{ id: string }> {
  const response = await post(path, who, json);
  expect(response.status).toBe(201);
  return response.body as { id: string };
}

/** A receiver on loopback subscribed to every event of the team `query` names; its secret. */
async function subscribed(who: TestPerson, query: string) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const hook = await post(`/webhooks${query}`, who, { url: receiver.url, events: ['*'] });
  expect(hook.status).toBe(201);
  return { receiver, secret: (hook.body as { secret: string }).secret };
}

/** What a receiver got, each delivery's signature checked with its subscription's secret. */
const verified = (received: WebhookReceiver['received'], secret: string): Delivered[] =>
  received.map(
    ({ body, headers }) => new Verifier(secret).verify(body, headers as Record<string, string>) as Delivered,
  );

const summary = (events: Delivered[]) => events.map(({ type, data }) => `${type} ${data.id}`).sort();

describe("a shared team's webhooks", () => {
  it("receive its projects' events whoever made them, signed; a member's personal team and another team receive none", async () => {
    const [owner, developer] = await Promise.all([newPerson('Owner'), newPerson('Dev')]);
    const [teamId, otherTeamId] = await Promise.all([
      newTeam(gateway.baseUrl, owner, 'Acme'),
      newTeam(gateway.baseUrl, owner, 'Other'),
    ]);
    for (const id of [teamId, otherTeamId, owner.userId, developer.userId]) partitions.add(id);
    await join(gateway.baseUrl, teamId, owner, developer, 'developer');

    const team = await subscribed(owner, `?teamId=${teamId}`);
    const personal = await subscribed(developer, '');
    const other = await subscribed(owner, `?teamId=${otherTeamId}`);

    // The developer's project and deployment in the team, events the owner's subscription is for.
    const project = await created(`/projects?teamId=${teamId}`, developer, { name: 'shared-web' });
    const deployment = await created(`/deployments?teamId=${teamId}`, developer, { projectId: project.id });
    const events = verified(await team.receiver.waitFor(2, 20_000), team.secret);
    expect(summary(events)).toEqual([`deployment.created ${deployment.id}`, `project.created ${project.id}`]);
    expect(events.find(({ type }) => type === 'deployment.created')?.data).toMatchObject({
      id: deployment.id,
      projectId: project.id,
    });

    // Something of each other subscription's own after them: each receives that, and only that.
    const ownProject = await created('/projects', developer, { name: 'mine' });
    const otherProject = await created(`/projects?teamId=${otherTeamId}`, owner, { name: 'elsewhere' });
    const [personalEvents, otherEvents] = await Promise.all([
      personal.receiver.waitFor(1, 20_000),
      other.receiver.waitFor(1, 20_000),
    ]);
    await queue.drained();
    expect(summary(verified(personalEvents, personal.secret))).toEqual([`project.created ${ownProject.id}`]);
    expect(summary(verified(otherEvents, other.secret))).toEqual([`project.created ${otherProject.id}`]);
    expect(team.receiver.received).toHaveLength(2);
  });
});
