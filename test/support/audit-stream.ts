import type { DynamoDBRecord } from 'aws-lambda';
import { type StreamPoller, startStreamPoller } from '../../infra/local/stream-poller.ts';
import { streamConsumers } from '../../shared/consumers.ts';

// The audit log's stream consumer for a test file: most events are made from a change's stream
// record (shared/db/audit-stamp.ts), which the test gateway alone does not read. It takes only the
// records of the people and teams the file watches, as every test file polls the one DynamoDB Local.

export interface AuditRecorder {
  /** Records the changes of these users and teams from now on. */
  watch(...ids: string[]): void;
  stop(): Promise<void>;
}

/** The stamp a record's write carried: who made the change, and in which team. */
function stampOf(record: DynamoDBRecord): { teamId?: string; actorId?: string } {
  const stamp = record.dynamodb?.NewImage?.audit?.M;
  return { teamId: stamp?.teamId?.S, actorId: stamp?.actor?.M?.id?.S };
}

/** Starts recording the audit events of the watched users' and teams' changes. */
export async function startAuditRecorder(): Promise<AuditRecorder> {
  const watched = new Set<string>();
  const poller: StreamPoller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    intervalMs: 200,
    consumers: streamConsumers.filter(({ handler }) => handler === 'record-audit-events'),
    accepts: (record) => {
      const { teamId, actorId } = stampOf(record);
      return (teamId !== undefined && watched.has(teamId)) || (actorId !== undefined && watched.has(actorId));
    },
  });
  return {
    watch: (...ids) => {
      for (const id of ids) watched.add(id);
    },
    stop: () => poller.stop(),
  };
}

/** Reads until `done` holds of what `read` gives (the recorder polls every 200 ms), or about 20 seconds pass. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let round = 0; ; round++) {
    const value = await read();
    if (done(value) || round >= 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
