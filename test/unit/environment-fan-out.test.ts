import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { eventOf } from '#shared/webhooks/fan-out.ts';

// The environment table's stream: a change of the set's head is `project.env.updated` with keys and
// targets; the variables' own items (sealed values) and the snapshots are no event.

const image = (item: object) => marshall(item) as unknown as Record<string, AttributeValue>;
const record = (
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  next?: object,
  previous?: object,
): DynamoDBRecord => ({
  eventID: 'event-1',
  eventName,
  dynamodb: {
    ApproximateCreationDateTime: 1_795_000_000,
    ...(next ? { NewImage: image(next) } : {}),
    ...(previous ? { OldImage: image(previous) } : {}),
  } as DynamoDBRecord['dynamodb'],
});

const head = {
  projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
  sk: 'set',
  ownerId: 'usr_1',
  version: 'evs_1',
  count: 1,
  revision: 2,
  lastChange: {
    change: 'updated',
    variables: [{ key: 'TOKEN', targets: ['production'], type: 'secret' }],
    at: '2026-11-22T09:00:00.000Z',
    revision: 2,
  },
};

describe('project.env.updated', () => {
  it('is made of the head, with the change and no revision, for its owner', () => {
    for (const kind of ['INSERT', 'MODIFY'] as const) {
      expect(eventOf(record(kind, head, head))).toEqual({
        sourceId: 'event-1',
        ownerId: 'usr_1',
        type: 'project.env.updated',
        timestamp: new Date(1_795_000_000_000).toISOString(),
        data: {
          projectId: head.projectId,
          change: 'updated',
          variables: [{ key: 'TOKEN', targets: ['production'], type: 'secret' }],
          at: '2026-11-22T09:00:00.000Z',
        },
      });
    }
  });

  it('is not made of a removed head, a variable or a snapshot', () => {
    const variable = {
      projectId: head.projectId,
      sk: 'var#evs_1#env_1',
      id: 'env_1',
      key: 'TOKEN',
      sealed: 'v1.local.x.y',
    };
    const snapshot = {
      projectId: head.projectId,
      sk: 'snapshot#dpl_1#000',
      target: 'production',
      variables: [],
    };
    expect(eventOf(record('REMOVE', undefined, head))).toBeUndefined();
    expect(eventOf(record('INSERT', variable))).toBeUndefined();
    expect(eventOf(record('MODIFY', variable, variable))).toBeUndefined();
    expect(eventOf(record('INSERT', snapshot))).toBeUndefined();
  });
});

describe("the copy of the head on the project's item", () => {
  const project = {
    ownerId: 'usr_1',
    id: head.projectId,
    name: 'web',
    productionBranch: 'main',
    createdAt: '2026-11-22T08:00:00.000Z',
    updatedAt: '2026-11-22T08:00:00.000Z',
    variablesHead: { count: 0, revision: 0 },
  };

  it('is no `project.updated` when it alone changes (the head makes the event)', () => {
    const copied = { ...project, variablesHead: { version: 'evs_1', count: 1, revision: 1 } };
    expect(eventOf(record('MODIFY', copied, project))).toBeUndefined();
  });

  it('leaves a change the project shows a `project.updated`, without the copy', () => {
    const renamed = { ...project, name: 'site', updatedAt: '2026-11-22T10:00:00.000Z' };
    expect(eventOf(record('MODIFY', renamed, project))).toMatchObject({
      type: 'project.updated',
      data: { id: head.projectId, name: 'site' },
    });
    expect(eventOf(record('MODIFY', renamed, project))?.data).not.toHaveProperty('variablesHead');
  });
});
