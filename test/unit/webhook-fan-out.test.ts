import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { eventOf } from '../../shared/webhooks/fan-out.ts';
import { messageIdOf } from '../../shared/webhooks/messages.ts';

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
      data: { ...shownProject, repository: null },
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
