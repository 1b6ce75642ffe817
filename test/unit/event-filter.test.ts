import type { DynamoDBRecord } from 'aws-lambda';
import { matchesFilter } from '#infra/local/event-filter.ts';
import { filterOf, type StreamConsumer, streamConsumers } from '#shared/consumers.ts';

// The local stream poller hands a consumer only the records its row's filter names, as Lambda's event
// source mapping does in the stack (both read the filter from shared/consumers.ts).

const consumer = (handler: string): StreamConsumer => {
  const found = streamConsumers.find((row) => row.handler === handler);
  if (!found) throw new Error(handler);
  return found;
};

const S = (value: string) => ({ S: value });

function record(
  eventName: DynamoDBRecord['eventName'],
  keys: Record<string, string>,
  images: { next?: Record<string, string>; previous?: Record<string, string> } = {},
): DynamoDBRecord {
  const image = (values?: Record<string, string>) =>
    values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, S(value)]));
  return {
    eventName,
    dynamodb: {
      Keys: image(keys),
      ...(images.next ? { NewImage: image({ ...keys, ...images.next }) } : {}),
      ...(images.previous ? { OldImage: image({ ...keys, ...images.previous }) } : {}),
    },
  } as DynamoDBRecord;
}

describe('the consumers’ filters, applied locally', () => {
  it("hand the fan-out the environment table's head items only, and every record of its other streams", () => {
    const fanOut = consumer('webhook-fan-out');
    const environment = filterOf(fanOut, 'environment');
    if (!environment) throw new Error('the fan-out has no filter on the environment stream');
    const head = record('MODIFY', { projectId: 'prj_1', sk: 'set' }, { next: {}, previous: {} });
    expect(matchesFilter(head, environment)).toBe(true);
    for (const sk of ['var#1#env_1', 'snapshot#dpl_1#0', 'production#mov_1', 'promoted#dpl_1'])
      expect(matchesFilter(record('INSERT', { projectId: 'prj_1', sk }, { next: {} }), environment)).toBe(
        false,
      );
    expect(filterOf(fanOut, 'projects')).toBeUndefined();
    expect(filterOf(fanOut, 'deployments')).toBeUndefined();
  });

  it('hand the purge removals only', () => {
    const removals = filterOf(consumer('purge-project'), 'projects');
    if (!removals) throw new Error('the purge has no filter');
    const keys = { ownerId: 'usr_1', id: 'prj_1' };
    expect(matchesFilter(record('REMOVE', keys, { previous: {} }), removals)).toBe(true);
    expect(matchesFilter(record('MODIFY', keys, { next: {}, previous: {} }), removals)).toBe(false);
    expect(matchesFilter(record('INSERT', keys, { next: {} }), removals)).toBe(false);
  });

  it('hand automatic promotion a production deployment that just became ready, and nothing else', () => {
    const becameReady = filterOf(consumer('auto-promote'), 'deployments');
    if (!becameReady) throw new Error('automatic promotion has no filter');
    const keys = { ownerId: 'usr_1', id: 'dpl_1' };
    const change = (from: string, to: string, target = 'production') =>
      record('MODIFY', keys, { next: { status: to, target }, previous: { status: from, target } });
    expect(matchesFilter(change('building', 'ready'), becameReady)).toBe(true);
    expect(matchesFilter(change('queued', 'ready'), becameReady)).toBe(true);
    // Already ready (a later write to its item), a preview, another status, a new item.
    expect(matchesFilter(change('ready', 'ready'), becameReady)).toBe(false);
    expect(matchesFilter(change('building', 'ready', 'preview'), becameReady)).toBe(false);
    expect(matchesFilter(change('building', 'error'), becameReady)).toBe(false);
    expect(
      matchesFilter(record('INSERT', keys, { next: { status: 'ready', target: 'production' } }), becameReady),
    ).toBe(false);
    // An item from before targets were stored has none: it is a preview, and moves nothing.
    const untargeted = record('MODIFY', keys, {
      next: { status: 'ready' },
      previous: { status: 'building' },
    });
    expect(matchesFilter(untargeted, becameReady)).toBe(false);
  });
});
