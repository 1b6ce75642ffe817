import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

// An HTTP proxy on loopback in front of DynamoDB (Local) that loses answers on purpose: a request
// chosen by its `X-Amz-Target` (the operation) is forwarded and applied by the store, then the
// connection is cut before the answer reaches the client. The SDK sees a reset socket and retries:
// the case of a write applied whose response was lost. With `forgetToken`, the retry reaches the
// store without its ClientRequestToken, as a retry DynamoDB cannot match to the first would (after
// the token's 10-minute window, or one sent again above the SDK): the store then judges it afresh.
// With `containing`, only a request whose body holds every one of those strings is dropped (say a
// project's id and the key of its head), so that one write among many of the same operation is hit.
// With `failing`, every request for an operation is answered 500 (never forwarded) until it is
// turned off: the store failing a write for a while. With `leaveUnprocessed`, the next BatchGetItem
// calls are answered 200 with nothing read and every key they asked for unprocessed, as DynamoDB
// answers one that exceeds the table's capacity (never forwarded). With `lagIndex`, the next Query
// calls of an index (whose body holds every string given) are answered 200 with no items, as an
// index that has not caught up with the latest writes answers (never forwarded).

export interface ResponseDroppingProxy {
  /** `http://127.0.0.1:<port>`: the endpoint to give the client. */
  url: string;
  /**
   * Drops the answer of the next request for `operation` (e.g. `TransactWriteItems`, or one of
   * several), and only of one whose body contains every string of `containing`.
   */
  dropNext(operation: string | string[], options?: DropOptions): void;
  /** Answers every request for `operation` with a 500 from now on (`false`: forwards them again). */
  failing(operation: string, on: boolean): void;
  /** Answers the next `calls` BatchGetItem requests with every key unprocessed. */
  leaveUnprocessed(calls: number): void;
  /** Answers the next `calls` Query requests of an index, whose body holds every one of `containing`, with no items. */
  lagIndex(calls: number, containing: string[]): void;
  /** Requests seen per operation, and how many of their answers were dropped or failed. */
  seen(operation: string): { requests: number; dropped: number; failed: number };
  close(): Promise<void>;
}

export interface DropOptions {
  forgetToken?: boolean;
  containing?: string[];
}

interface DropRule {
  operations: string[];
  containing: string[];
  forgetToken: boolean;
  /** Armed: the next match is dropped; dropped: the next match (the retry) loses its token. */
  state: 'armed' | 'dropped';
}

export async function startResponseDroppingProxy(upstream: string): Promise<ResponseDroppingProxy> {
  const target = new URL(upstream);
  const rules: DropRule[] = [];
  const ruleFor = (operation: string, body: string, state: DropRule['state']) => {
    const index = rules.findIndex(
      (rule) =>
        rule.state === state &&
        rule.operations.includes(operation) &&
        rule.containing.every((text) => body.includes(text)),
    );
    return index === -1 ? undefined : { rule: rules[index] as DropRule, index };
  };
  const failed = new Set<string>();
  let unprocessedCalls = 0;
  let lagging = { calls: 0, containing: [] as string[] };
  const stats = new Map<string, { requests: number; dropped: number; failed: number }>();
  const statsOf = (operation: string) => {
    const found = stats.get(operation) ?? { requests: 0, dropped: 0, failed: 0 };
    stats.set(operation, found);
    return found;
  };
  const server = createServer(async (req, res) => {
    const operation =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .at(-1) ?? '';
    const counted = statsOf(operation);
    counted.requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (failed.has(operation)) {
      counted.failed++;
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(
        JSON.stringify({
          __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
          message: 'failing on purpose',
        }),
      );
      return;
    }
    let body = Buffer.concat(chunks);
    const text = body.toString('utf8');
    if (operation === 'BatchGetItem' && unprocessedCalls > 0) {
      unprocessedCalls--;
      const { RequestItems } = JSON.parse(text) as { RequestItems: Record<string, unknown> };
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Responses: {}, UnprocessedKeys: RequestItems }));
      return;
    }
    if (
      operation === 'Query' &&
      lagging.calls > 0 &&
      text.includes('"IndexName"') &&
      lagging.containing.every((part) => text.includes(part))
    ) {
      lagging.calls--;
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Items: [], Count: 0, ScannedCount: 0 }));
      return;
    }
    const toDrop = ruleFor(operation, text, 'armed');
    const drop = toDrop !== undefined;
    if (toDrop?.rule.forgetToken) toDrop.rule.state = 'dropped';
    else if (toDrop) rules.splice(toDrop.index, 1);
    const toForget = drop ? undefined : ruleFor(operation, text, 'dropped');
    if (toForget) {
      rules.splice(toForget.index, 1);
      const { ClientRequestToken: _forgotten, ...rest } = JSON.parse(body.toString('utf8')) as Record<
        string,
        unknown
      >;
      body = Buffer.from(JSON.stringify(rest));
    }
    const headers = { ...req.headers, 'content-length': String(body.byteLength) };
    const forwarded = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        if (drop) {
          // Read the whole answer first, so the write is surely done, then lose it.
          answer.resume();
          answer.on('end', () => {
            counted.dropped++;
            req.socket.destroy();
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropNext: (operation, options = {}) => {
      rules.push({
        operations: [operation].flat(),
        containing: options.containing ?? [],
        forgetToken: options.forgetToken ?? false,
        state: 'armed',
      });
    },
    failing: (operation, on) => {
      if (on) failed.add(operation);
      else failed.delete(operation);
    },
    leaveUnprocessed: (calls) => {
      unprocessedCalls = calls;
    },
    lagIndex: (calls, containing) => {
      lagging = { calls, containing };
    },
    seen: (operation) => ({ ...statsOf(operation) }),
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
