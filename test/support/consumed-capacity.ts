import { onEachStoreClients } from '#shared/db/client.ts';

// Asks every DynamoDB call the service makes, on all of its clients, for its consumed capacity
// (table and each index: ReturnConsumedCapacity INDEXES) and records it, so that a test can see
// which indexes a request wrote. The bench does the same in front of DynamoDB Local
// (test/bench/metering-proxy.ts).

interface Consumed {
  TableName?: string;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** One call: its command and the units it consumed per table (`platform-api-keys`) and index (`platform-api-keys/ownerKeys`). */
export interface MeteredCall {
  command: string;
  units: Record<string, number>;
}

export function meterCapacity(): { take(): MeteredCall[] } {
  let calls: MeteredCall[] = [];
  onEachStoreClients(({ db, countingDb }) => {
    for (const client of [db, countingDb]) {
      client.middlewareStack.add(
        (next, context) => async (args) => {
          const input = args.input as Record<string, unknown>;
          input.ReturnConsumedCapacity = 'INDEXES';
          const units: Record<string, number> = {};
          const record = (output: unknown) => {
            const consumed = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)
              ?.ConsumedCapacity;
            for (const entry of consumed === undefined ? [] : [consumed].flat()) {
              const table = entry.TableName ?? '?';
              units[table] = (units[table] ?? 0) + (entry.Table?.CapacityUnits ?? 0);
              for (const [index, used] of Object.entries(entry.GlobalSecondaryIndexes ?? {})) {
                units[`${table}/${index}`] = (units[`${table}/${index}`] ?? 0) + (used.CapacityUnits ?? 0);
              }
            }
          };
          try {
            const result = await next(args);
            record(result.output);
            return result;
          } catch (error) {
            // A failed condition consumes capacity too; DynamoDB reports it on the error.
            record(error);
            throw error;
          } finally {
            calls.push({ command: String(context.commandName), units });
          }
        },
        { step: 'initialize', name: 'meterCapacity' },
      );
    }
  });
  return {
    take() {
      const taken = calls;
      calls = [];
      return taken;
    },
  };
}
