import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type FilterPattern, filterOf, type StreamConsumer, streamConsumers } from '#shared/consumers.ts';
import { type TableKey, tableNameHere } from '#shared/db/tables.ts';
import { logError } from '#shared/runtime/log.ts';
import { handlerEntry } from '../handler-entries.ts';
import { localClient } from './dynamodb-local.ts';
import { matchesFilter } from './event-filter.ts';
import { every } from './every.ts';
import { runAs } from './iam/principal.ts';

// The local stand-in for Lambda's DynamoDB stream event source: reads DynamoDB Local's streams
// (its DynamoDB Streams API) and hands each batch of records to the consumer's handler module, the
// one Lambda would load. It starts at the end of each stream (what happened before it started is
// not replayed) and picks up shards as they appear. A batch whose handler throws, or reports items
// it failed on, is handed over again on the next round, as Lambda retries a batch. A consumer's
// filter for a stream (shared/consumers.ts) passes its other records by, as Lambda's mapping does.
// Each batch runs as the consumer's function, with its grants (infra/local/iam).

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;

/** A record as the SDK reads it, as Lambda hands it over (creation time in epoch seconds). */
type Value = Record<string, unknown>;

/**
 * An attribute value as Lambda hands it over. The streams client reads an empty map (`{"M":{}}`) as
 * `{}`, which no unmarshaller accepts; Lambda's event keeps it a map.
 */
function asLambdaValue(value: Value): Value {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.M) return { M: asLambdaImage(value.M as Record<string, Value>) };
  if (Array.isArray(value.L)) return { L: (value.L as Value[]).map(asLambdaValue) };
  return value;
}

const asLambdaImage = (image: Record<string, Value> | undefined) =>
  image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, asLambdaValue(value)]));

const asEventRecord = (record: StreamRecord, streamArn: string): DynamoDBRecord => {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  const images = record.dynamodb as { NewImage?: Record<string, Value>; OldImage?: Record<string, Value> };
  return {
    ...record,
    eventSourceARN: streamArn,
    dynamodb: {
      ...record.dynamodb,
      ...(images?.NewImage ? { NewImage: asLambdaImage(images.NewImage) } : {}),
      ...(images?.OldImage ? { OldImage: asLambdaImage(images.OldImage) } : {}),
      ...(created ? { ApproximateCreationDateTime: Math.floor(created.getTime() / 1000) } : {}),
    },
  } as DynamoDBRecord;
};

/** How often a stream's shards are described again (see shardIdsOf). */
const DISCOVERY_MS = 2_000;

interface ShardReader {
  id: string;
  iterator: string | undefined;
  /** The last record handed over (or skipped at start): where a lost iterator resumes. */
  lastSequence?: string;
  done: boolean;
}

type Records = { Records?: StreamRecord[]; NextShardIterator?: string | undefined };

export interface StreamPoller {
  stop(): Promise<void>;
}

export interface StreamPollerOptions {
  intervalMs?: number;
  consumers?: readonly StreamConsumer[];
  /**
   * Which records this poller hands over; the others are passed by as if another consumer took them.
   * For tests: every test process that polls the one DynamoDB Local would otherwise hand every
   * other's records to its own consumers too, and each webhook would arrive once per poller.
   */
  accepts?: (record: DynamoDBRecord) => boolean;
}

/** Starts polling every consumer's streams on DynamoDB Local (`endpoint`) every `intervalMs`. */
export async function startStreamPoller(
  endpoint: string,
  options: StreamPollerOptions = {},
): Promise<StreamPoller> {
  // DynamoDB Local keeps one database per access key and region: the same as every local client.
  const streams = new DynamoDBStreamsClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const dynamodb = localClient(endpoint);
  const intervalMs = options.intervalMs ?? 200;
  const feeds: {
    table: TableKey;
    streamArn: string;
    /** The consumer's function, run with its grants. */
    consumer: string;
    handler: StreamHandler;
    filter: FilterPattern | undefined;
    shards: Map<string, ShardReader>;
  }[] = [];
  for (const consumer of options.consumers ?? streamConsumers) {
    const module: { handler: StreamHandler } = await import(handlerEntry(consumer.handler));
    for (const table of consumer.streams) {
      // The name the functions use (a suite may give a table of its own), as the local IAM reads it.
      const name = tableNameHere(table);
      const described = await dynamodb.send(new DescribeTableCommand({ TableName: name }));
      const streamArn = described.Table?.LatestStreamArn;
      if (!streamArn) throw new Error(`${name} has no stream (shared/db/tables.ts declares one)`);
      feeds.push({
        table,
        streamArn,
        consumer: consumer.handler,
        handler: module.handler,
        filter: filterOf(consumer, table),
        shards: new Map(),
      });
    }
  }

  const iteratorOf = async (
    feed: (typeof feeds)[number],
    shard: ShardReader,
  ): Promise<string | undefined> => {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: feed.streamArn,
        ShardId: shard.id,
        ...(shard.lastSequence === undefined
          ? { ShardIteratorType: 'TRIM_HORIZON' }
          : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.lastSequence }),
      }),
    );
    return ShardIterator;
  };

  /**
   * One GetRecords. DynamoDB Local answers TrimmedDataAccessException for an iterator taken on a
   * shard that was empty then; a fresh iterator after the last record read goes on from there.
   */
  const next = async (feed: (typeof feeds)[number], shard: ShardReader): Promise<Records> => {
    try {
      return await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 100 }));
    } catch (error) {
      if (
        !(error instanceof Error) ||
        !/TrimmedDataAccess|ExpiredIterator/.test(`${error.name} ${error.message}`)
      )
        throw error;
      shard.iterator = await iteratorOf(feed, shard);
      return { NextShardIterator: shard.iterator };
    }
  };

  const moveOn = (shard: ShardReader, answer: Records) => {
    const last = answer.Records?.at(-1)?.dynamodb?.SequenceNumber;
    if (last !== undefined) shard.lastSequence = last;
    shard.iterator = answer.NextShardIterator;
    shard.done = answer.NextShardIterator === undefined;
  };

  /**
   * A stream's shard ids, described at most every DISCOVERY_MS and shared by every feed of that
   * stream: every test file polls the one DynamoDB Local, and describing each stream for each
   * consumer every round had been half of what the pollers asked of it. A new shard (rare: a
   * stream's shard rolls over after hours) is found within DISCOVERY_MS.
   */
  const described = new Map<string, { at: number; shardIds: Promise<string[]> }>();
  const shardIdsOf = (streamArn: string): Promise<string[]> => {
    const known = described.get(streamArn);
    if (known && Date.now() - known.at < DISCOVERY_MS) return known.shardIds;
    const shardIds = streams
      .send(new DescribeStreamCommand({ StreamArn: streamArn }))
      .then(({ StreamDescription }) =>
        (StreamDescription?.Shards ?? []).flatMap(({ ShardId }) => ShardId ?? []),
      );
    // A failed description is asked again next round, not kept for the window.
    shardIds.catch(() => described.delete(streamArn));
    described.set(streamArn, { at: Date.now(), shardIds });
    return shardIds;
  };

  /** Finds new shards. Those there at start are read to their end first: the past is not replayed. */
  const discover = async (feed: (typeof feeds)[number], atStart: boolean) => {
    for (const ShardId of await shardIdsOf(feed.streamArn)) {
      if (feed.shards.has(ShardId)) continue;
      const shard: ShardReader = { id: ShardId, iterator: undefined, done: false };
      shard.iterator = await iteratorOf(feed, shard);
      feed.shards.set(ShardId, shard);
      while (atStart && !shard.done) {
        const answer = await next(feed, shard);
        moveOn(shard, answer);
        if ((answer.Records ?? []).length === 0) break;
      }
    }
  };

  const read = async (feed: (typeof feeds)[number]) => {
    await discover(feed, false);
    for (const shard of feed.shards.values()) {
      if (shard.done || shard.iterator === undefined) continue;
      const answer = await next(feed, shard);
      const records = (answer.Records ?? [])
        .map((record) => asEventRecord(record, feed.streamArn))
        .filter((record) => feed.filter === undefined || matchesFilter(record, feed.filter))
        .filter(options.accepts ?? (() => true));
      // The shard moves on only once the handler took the whole batch: a failed one comes again.
      const response =
        records.length > 0 ? await runAs(feed.consumer, () => feed.handler({ Records: records })) : undefined;
      if (response && response.batchItemFailures.length > 0) continue;
      moveOn(shard, answer);
    }
  };

  for (const feed of feeds) await discover(feed, true);
  const polling = every(intervalMs, async () => {
    await Promise.all(
      feeds.map((feed) =>
        read(feed).catch((error: unknown) => {
          // The store may be restarting (npm start supervises it): try again next round.
          logError('local stream poller: round failed', { table: feed.table }, error);
        }),
      ),
    );
  });
  return {
    stop: async () => {
      await polling.stop();
      streams.destroy();
      dynamodb.destroy();
    },
  };
}
