import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A metering step in front of DynamoDB Local: every call that can report its consumed capacity is
// asked to (`ReturnConsumedCapacity: INDEXES`), and the answer's capacity, for the table and for
// each index, is recorded before the answer goes back unchanged. The service's clients need no
// change: they are pointed at the proxy instead of the store (DYNAMODB_ENDPOINT). DynamoDB Local
// does not check request signatures, so adding a field to a signed body is accepted; the answer is
// passed on byte for byte, so the SDK's CRC32 check of it still holds.

/** What DynamoDB reports per table in `ConsumedCapacity` (the fields this reads). */
export interface ConsumedCapacity {
  TableName?: string;
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<
    string,
    { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }
  >;
}

/** One metered call: the operation (`UpdateItem`) and what it consumed, table by table. */
export interface MeteredCall {
  operation: string;
  consumed: ConsumedCapacity[];
}

/** The operations that take ReturnConsumedCapacity. */
const METERED = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);

export interface MeteringProxy {
  /** `http://127.0.0.1:<port>`: the endpoint to give the service. */
  endpoint: string;
  /** The calls metered since the last `take()`, in the order their answers came. */
  take(): MeteredCall[];
  close(): Promise<void>;
}

const consumedOf = (answer: unknown): ConsumedCapacity[] => {
  const consumed = (answer as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] } | null)
    ?.ConsumedCapacity;
  if (consumed === undefined) return [];
  return Array.isArray(consumed) ? consumed : [consumed];
};

export async function startMeteringProxy(upstream: string): Promise<MeteringProxy> {
  const target = new URL(upstream);
  let calls: MeteredCall[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const metered = METERED.has(operation);
    if (metered) {
      const input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      body = Buffer.from(JSON.stringify({ ...input, ReturnConsumedCapacity: 'INDEXES' }));
    }
    const headers = { ...req.headers, 'content-length': String(body.byteLength) };
    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      async (answer) => {
        const parts: Buffer[] = [];
        for await (const part of answer) parts.push(part as Buffer);
        const text = Buffer.concat(parts);
        if (metered) {
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(text.toString('utf8'));
          } catch {
            // Not JSON: nothing to record.
          }
          calls.push({ operation, consumed: consumedOf(parsed) });
        }
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        res.end(text);
      },
    );
    forward.on('error', () => res.destroy());
    forward.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    take() {
      const taken = calls;
      calls = [];
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
