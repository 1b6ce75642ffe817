import type { Server } from 'node:http';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rotated } from './stats.ts';

// Warm requests over real HTTP on loopback, to two servers in turns: the local gateway (the
// handlers Lambda runs, behind the event API Gateway would send) and the minimal server. Latency
// is one request at a time; throughput keeps CONCURRENCY requests in flight, as many as the
// gateway runs invocations at once.

export interface WarmRequest {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  key: string;
  expected: number;
}

export interface WarmResult {
  label: string;
  latencyMs: Record<'gateway' | 'minimal', number[]>;
  requestsPerSecond: Record<'gateway' | 'minimal', number[]>;
}

const CONCURRENCY = 16;

/** Where a server listens, as `http://127.0.0.1:<port>`. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function send(base: string, agent: Agent, warm: WarmRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${warm.key}` };
    if (warm.body !== undefined) headers['Content-Type'] = 'application/json';
    const req = request(`${base}${warm.path}`, { method: warm.method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === warm.expected
          ? resolve()
          : reject(new Error(`${warm.label} answered ${res.statusCode} from ${base}`)),
      );
    });
    req.on('error', reject);
    req.end(warm.body);
  });
}

async function sequential(base: string, agent: Agent, warm: WarmRequest, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await send(base, agent, warm);
    times.push(performance.now() - started);
  }
  return times;
}

async function concurrent(base: string, agent: Agent, warm: WarmRequest, count: number): Promise<number> {
  let left = count;
  const started = performance.now();
  const worker = async () => {
    while (left-- > 0) await send(base, agent, warm);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - started) / 1000);
}

export async function measureWarm(
  servers: Record<'gateway' | 'minimal', string>,
  warm: WarmRequest,
  rounds: number,
  perRound: { sequential: number; concurrent: number },
): Promise<WarmResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const result: WarmResult = {
    label: warm.label,
    latencyMs: { gateway: [], minimal: [] },
    requestsPerSecond: { gateway: [], minimal: [] },
  };
  try {
    // Warm-up: JIT, module caches and keep-alive connections on both sides.
    for (const base of Object.values(servers)) await concurrent(base, agent, warm, perRound.concurrent);
    for (let round = 0; round < rounds; round++) {
      for (const side of rotated(['gateway', 'minimal'] as const, round)) {
        result.latencyMs[side].push(...(await sequential(servers[side], agent, warm, perRound.sequential)));
        result.requestsPerSecond[side].push(
          await concurrent(servers[side], agent, warm, perRound.concurrent),
        );
      }
    }
  } finally {
    agent.destroy();
  }
  return result;
}
