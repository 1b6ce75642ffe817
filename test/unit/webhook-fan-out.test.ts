import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Webhook } from '#shared/db/webhooks/webhooks.ts';
import { eventOf, fanOut } from '#shared/webhooks/fan-out.ts';
import type { DeliveryMessage } from '#shared/webhooks/messages.ts';
import { messageIdOf } from '#shared/webhooks/messages.ts';
import { captureLogs } from '../support/logs.ts';

// Which stream records are webhook events, and what each event carries: the resource as the API
// returns it, never the store's own attributes.

const project = {
  ownerId: 'usr_1',
  id: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
  name: 'web',
  productionBranch: 'main',
  createdAt: '2026-11-22T09:00:00.000Z',
  updatedAt: '2026-11-22T09:00:00.000Z',
};
const deployment = {
  ownerId: 'usr_1',
  id: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M',
  projectId: project.id,
  branch: 'main',
  status: 'queued',
  createdAt: '2026-11-22T09:01:00.000Z',
  updatedAt: '2026-11-22T09:01:00.000Z',
  ownerStatus: 'usr_1#queued',
  activeStatus: 'queued',
  events: [{ status: 'queued', at: '2026-11-22T09:01:00.000Z' }],
};

const image = (item: object) => marshall(item) as unknown as Record<string, AttributeValue>;

function record(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', next?: object, previous?: object): DynamoDBRecord {
  return {
    eventID: `event-${Math.random()}`,
    eventName,
    dynamodb: {
      ApproximateCreationDateTime: 1_795_000_000,
      ...(next ? { NewImage: image(next) } : {}),
      ...(previous ? { OldImage: image(previous) } : {}),
    },
  } as DynamoDBRecord;
}

const { ownerId: _owner, ...shownProject } = project;
const shownDeployment = {
  id: deployment.id,
  projectId: deployment.projectId,
  branch: 'main',
  status: 'queued',
  target: 'preview',
  createdAt: deployment.createdAt,
  updatedAt: deployment.updatedAt,
};

describe('eventOf', () => {
  it('makes project.created, project.updated and project.deleted of puts, changes and removals', () => {
    const renamed = { ...project, name: 'site', updatedAt: '2026-11-22T09:05:00.000Z' };
    expect(eventOf(record('INSERT', project))).toEqual({
      sourceId: expect.any(String),
      ownerId: 'usr_1',
      type: 'project.created',
      timestamp: new Date(1_795_000_000_000).toISOString(),
      data: { ...shownProject, repository: null, production: null, autoPromotion: true },
    });
    expect(eventOf(record('MODIFY', renamed, project))).toMatchObject({
      type: 'project.updated',
      data: { name: 'site' },
    });
    expect(eventOf(record('REMOVE', undefined, project))).toMatchObject({
      type: 'project.deleted',
      data: { id: project.id },
    });
  });

  it('makes project.production_changed when the pointer moves, with the pointer before and after', () => {
    const pointer = (deploymentId: string, reason: string) => ({
      deploymentId,
      url: null,
      promotedAt: '2026-11-22T09:10:00.000Z',
      reason,
      rollbackTo: 'dpl_01JD8Z4A1B2C3D4E5F6G7H8J9K',
    });
    const first = { ...project, production: pointer(deployment.id, 'auto') };
    const rolledBack = {
      ...project,
      production: pointer('dpl_01JD8Z4A1B2C3D4E5F6G7H8J9K', 'rollback'),
      autoPromotion: false,
    };
    const event = eventOf(record('MODIFY', rolledBack, first));
    expect(event).toMatchObject({
      type: 'project.production_changed',
      data: {
        projectId: project.id,
        reason: 'rollback',
        production: { deploymentId: 'dpl_01JD8Z4A1B2C3D4E5F6G7H8J9K', reason: 'rollback' },
        previousProduction: { deploymentId: deployment.id, reason: 'auto' },
        project: { id: project.id, autoPromotion: false },
      },
    });
    // The rollback chain is the store's, not the subscriber's.
    expect(JSON.stringify(event?.data)).not.toContain('rollbackTo');
    expect(eventOf(record('MODIFY', first, project))).toMatchObject({
      type: 'project.production_changed',
      data: { previousProduction: null },
    });
    // Resuming automatic promotion without a move is an ordinary change.
    expect(eventOf(record('MODIFY', { ...rolledBack, autoPromotion: true }, rolledBack))).toMatchObject({
      type: 'project.updated',
    });
  });

  it('makes deployment.created of a new deployment and deployment.<status> of each change of status', () => {
    expect(eventOf(record('INSERT', deployment))).toMatchObject({
      type: 'deployment.created',
      data: shownDeployment,
    });
    for (const status of ['building', 'ready', 'error', 'canceled']) {
      const moved = { ...deployment, status, updatedAt: '2026-11-22T09:02:00.000Z' };
      expect(eventOf(record('MODIFY', moved, deployment))).toMatchObject({
        type: `deployment.${status}`,
        data: { ...shownDeployment, status, updatedAt: '2026-11-22T09:02:00.000Z' },
      });
    }
  });

  it('makes no event of a change that keeps the status, nor of a removed deployment', () => {
    const backfilled = { ...deployment, ownerBranch: 'usr_1#main' };
    expect(eventOf(record('MODIFY', backfilled, deployment))).toBeUndefined();
    expect(eventOf(record('REMOVE', undefined, deployment))).toBeUndefined();
  });

  it('never puts the store attributes (owner, list keys, history) in the data', () => {
    const data = JSON.stringify(eventOf(record('INSERT', deployment))?.data);
    for (const attribute of ['ownerId', 'ownerStatus', 'activeStatus', 'events'])
      expect(data).not.toContain(attribute);
  });
});

describe('messageIdOf', () => {
  it('is the same for the same event and subscription, and differs otherwise', () => {
    expect(messageIdOf('a', 'whk_1')).toBe(messageIdOf('a', 'whk_1'));
    expect(messageIdOf('a', 'whk_1')).not.toBe(messageIdOf('a', 'whk_2'));
    expect(messageIdOf('a', 'whk_1')).not.toBe(messageIdOf('b', 'whk_1'));
    expect(messageIdOf('a', 'whk_1')).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
  });
});

describe('fanOut', () => {
  const subscription = (id: string): Webhook =>
    ({
      id,
      url: 'https://hooks.example.com/x',
      events: ['*'],
      description: null,
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      createdAt: project.createdAt,
      updatedAt: project.createdAt,
    }) as Webhook;
  // Twelve subscriptions: each event makes twelve messages, so every record is its own send.
  const subscriptions = async () => Array.from({ length: 12 }, (_, index) => subscription(`whk_${index}`));
  const numbered = (sequence: string, item: object) => {
    const made = record('INSERT', item);
    return { ...made, dynamodb: { ...made.dynamodb, SequenceNumber: sequence } } as DynamoDBRecord;
  };
  const batch = [
    numbered('100', project),
    numbered('200', { ...project, id: 'prj_2' }),
    numbered('300', { ...project, id: 'prj_3' }),
  ];

  it('sends every message of a batch and reports no failure', async () => {
    const sent: DeliveryMessage[][] = [];
    const answer = await fanOut(batch, async (messages) => void sent.push(messages), subscriptions);
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(sent.flat()).toHaveLength(36);
  });

  it('names the first record whose messages were not sent when a send fails, so the stream resumes there', async () => {
    let sends = 0;
    const { result, lines } = await captureLogs(() =>
      fanOut(
        batch,
        async () => {
          sends += 1;
          if (sends === 2) throw new Error('SQS unavailable');
        },
        subscriptions,
      ),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '200' }] });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 'error',
        sequenceNumber: '200',
        error: expect.objectContaining({ message: 'SQS unavailable' }),
      }),
    ]);
  });

  it('names the record whose subscriptions could not be read', async () => {
    const { result } = await captureLogs(() =>
      fanOut(
        batch,
        async () => {},
        async (ownerId) => {
          throw new Error(`store unavailable for ${ownerId}`);
        },
      ),
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '100' }] });
  });
});
