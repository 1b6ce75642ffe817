import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request: pass it on, answer it itself, or lose the answer. */
export type Fault =
  | 'forward'
  | 'lose-answer'
  | { status: number; headers?: Record<string, string>; body?: unknown };

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
  fault: Fault;
}

export interface FaultyProxy {
  /** `http://127.0.0.1:<port>`: use `${url}/v1` and `url` as the client's two servers. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A reverse proxy on loopback in front of the test gateway. `plan(n)` decides the fate of the n-th
 * request (from 0): `lose-answer` passes it on, lets the gateway finish it, then drops the client's
 * connection without an answer (a response lost on the way back).
 */
export async function startFaultyProxy(upstream: string, plan: (n: number) => Fault): Promise<FaultyProxy> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const fault = plan(requests.length);
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      at: Date.now(),
      fault,
    });
    if (typeof fault === 'object') {
      req.resume();
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      res.end(JSON.stringify(fault.body ?? {}));
      return;
    }
    const forwarded = request(
      `${upstream}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        if (fault === 'lose-answer') {
          answer.resume();
          answer.on('end', () => res.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
