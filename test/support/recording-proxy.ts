import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** The absolute URL asked for, or `host:port` for a CONNECT tunnel (HTTPS, WebSocket over TLS). */
  target: string;
  /** True when the proxy passed it on (only ever to the allowed origin); false when it refused. */
  forwarded: boolean;
  /** The allowed origin's status for a forwarded request. */
  status?: number;
}

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  url: string;
  /** Every request a client made through this proxy, in order. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on loopback that records every request and forwards only those for `allowedOrigin`;
 * anything else is answered 403 here and goes nowhere. A browser told to send all its traffic
 * through it, loopback included, cannot reach another machine, and the record shows what it tried.
 */
export async function startRecordingProxy(allowedOrigin: string): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const target = req.url ?? '';
    const entry: ProxiedRequest = { method: req.method ?? 'GET', target, forwarded: false };
    requests.push(entry);
    const url = URL.parse(target);
    if (!url || url.origin !== allowedOrigin) {
      res.writeHead(403).end();
      req.resume();
      return;
    }
    entry.forwarded = true;
    const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
      entry.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // Tunnels are never opened: the allowed origin is plain HTTP.
  server.on('connect', (req, socket) => {
    requests.push({ method: 'CONNECT', target: req.url ?? '', forwarded: false });
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
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
