import { startLocalBuilder } from '../../../infra/local/builder.ts';
import type { TestGateway } from '../../../test/support/gateway.ts';
import { startGateway } from '../../../test/support/gateway.ts';
import { overrideSettings } from '../../../test/support/settings.ts';
import { newCaller } from '../../../test/support/users.ts';
import type { PlatformClient as Client, FollowEvent } from '../src/index.ts';
import { PlatformClient } from '../src/index.ts';

// `client.deployments.follow` against the local gateway while the local builder (what
// `npm start` runs) builds: its lines as they are written, the end after the
// deployment is ready, and reconnects (the server's own `event: reconnect`, and a connection that
// drops halfway) that miss and repeat nothing. The stream polls every 100 ms and ends itself after
// 700 ms here, so a build of two 1-second steps spans several streams.

const restoreSettings = overrideSettings({ LOG_STREAM_POLL_MS: '100', LOG_STREAM_LIFETIME_MS: '700' });
// Settings are read when the service's modules load: everything that loads them is imported after.
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

const BUILD_LINES = [
  'Cloning branch main',
  'Installing dependencies',
  '> npm run build',
  'Compiled successfully',
  'Uploading build output',
];

/** Each request the client made: the Last-Event-ID it sent. */
type Opened = (string | null)[];

/** A client of a new user, through `fetch` as given, and a deployment of a new project, queued. */
async function deploymentOf(fetch?: (url: string, init: RequestInit) => Promise<Response>) {
  const { key, userId } = await newCaller();
  const client: Client = new PlatformClient({
    baseUrl: gateway.baseUrl,
    apiKey: key,
    ...(fetch ? { fetch } : {}),
  });
  const project = await client.projects.create({ name: 'followed' });
  const deployment = await client.deployments.create({ projectId: project.id });
  return { client, userId, id: deployment.id };
}

/** Follows to the end while the local builder builds; each event with when it arrived. */
async function followBuild(client: Client, id: string, userId: string) {
  // Started once the first stream is open (its first event is the queued status): the build's two
  // seconds then pass while following, however long a busy machine takes to open the stream.
  let builder: ReturnType<typeof startLocalBuilder> | undefined;
  const received: { event: FollowEvent; at: number }[] = [];
  try {
    for await (const event of client.deployments.follow(id)) {
      received.push({ event, at: Date.now() });
      builder ??= startLocalBuilder({ delayMs: 1000, pollMs: 20, ownerId: userId });
    }
  } finally {
    await builder?.stop();
  }
  return received;
}

const logsOpened = (opened: Opened) => (url: string, init: RequestInit) => {
  if (url.endsWith('/logs')) opened.push(new Headers(init.headers).get('last-event-id'));
  return globalThis.fetch(url, init);
};

describe('deployments.follow', () => {
  it('yields the lines as the build writes them, before it is ready, then its status and the end', async () => {
    const opened: Opened = [];
    const { client, id, userId } = await deploymentOf(logsOpened(opened));
    const received = await followBuild(client, id, userId);
    const deployment = await client.deployments.get(id);

    const events = received.map(({ event }) => event);
    expect(events.filter((event) => event.type === 'log')).toEqual(
      BUILD_LINES.map((text, i) => ({
        type: 'log',
        seq: i + 1,
        at: expect.any(String),
        stream: 'stdout',
        text,
      })),
    );
    expect(events.filter((event) => event.type === 'status')).toEqual([
      { type: 'status', status: 'queued', at: deployment.createdAt },
      { type: 'status', status: 'building', at: deployment.buildingAt },
      { type: 'status', status: 'ready', at: deployment.readyAt },
    ]);
    // Ready after the last line, and the end last.
    expect(events.slice(-3)).toEqual([
      expect.objectContaining({ type: 'log', seq: 5 }),
      { type: 'status', status: 'ready', at: deployment.readyAt },
      { type: 'end', status: 'ready' },
    ]);
    // The first line arrived while the deployment was still building, the end once it was ready.
    const readyAt = Date.parse(deployment.readyAt ?? '');
    const [firstLine] = received.filter(({ event }) => event.type === 'log');
    expect(firstLine?.at).toBeLessThan(readyAt);
    expect(received.at(-1)?.at).toBeGreaterThanOrEqual(readyAt);
    // The server ended each 700 ms stream with `event: reconnect`; each reconnect went on after the
    // last line received.
    expect(opened.length).toBeGreaterThanOrEqual(3);
    expect(opened[0]).toBeNull();
  }, 30_000);

  it('reconnects after a dropped connection with Last-Event-ID, missing and repeating nothing', async () => {
    const opened: Opened = [];
    // The stream that carries the first two lines breaks right after the second: whatever the server
    // sent after it in the same stream is lost, and the connection ends without `end` or `reconnect`.
    let droppedAfter: number | undefined;
    const dropping = async (url: string, init: RequestInit) => {
      const response = await logsOpened(opened)(url, init);
      if (!url.endsWith('/logs') || droppedAfter !== undefined || !response.body) return response;
      const decoder = new TextDecoder();
      let text = '';
      const cut = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const start = text.length;
          text += decoder.decode(chunk, { stream: true });
          const parts = text.split('event: log');
          const end = text.indexOf('\n\n', parts.slice(0, 2).join('event: log').length);
          if (parts.length < 3 || end < 0) return controller.enqueue(chunk);
          droppedAfter = opened.length;
          controller.enqueue(new TextEncoder().encode(text.slice(start, end + 2)));
          controller.terminate();
        },
      });
      return new Response(response.body.pipeThrough(cut), {
        status: response.status,
        headers: response.headers,
      });
    };
    const { client, id, userId } = await deploymentOf(dropping);
    const received = await followBuild(client, id, userId);

    const lines = received.flatMap(({ event }) => (event.type === 'log' ? [[event.seq, event.text]] : []));
    expect(lines).toEqual(BUILD_LINES.map((text, i) => [i + 1, text]));
    // The stream after the drop asked for what came after line 2.
    expect(droppedAfter).toBeDefined();
    expect(opened[droppedAfter ?? 0]).toBe('2');
    expect(received.filter(({ event }) => event.type === 'status').map(({ event }) => event)).toEqual([
      expect.objectContaining({ status: 'queued' }),
      expect.objectContaining({ status: 'building' }),
      expect.objectContaining({ status: 'ready' }),
    ]);
    expect(received.at(-1)?.event).toEqual({ type: 'end', status: 'ready' });
  }, 30_000);

  it('starts after `since`, and stops when its signal aborts', async () => {
    const { client, id, userId } = await deploymentOf();
    await followBuild(client, id, userId);
    const after = [];
    for await (const event of client.deployments.follow(id, { since: 3 })) after.push(event);
    expect(after.filter((event) => event.type === 'log').map((event) => event.seq)).toEqual([4, 5]);

    const { client: other, id: queued } = await deploymentOf();
    const controller = new AbortController();
    const seen: FollowEvent[] = [];
    await expect(
      (async () => {
        for await (const event of other.deployments.follow(queued, { signal: controller.signal })) {
          seen.push(event);
          controller.abort(new Error('enough'));
        }
      })(),
    ).rejects.toThrow('enough');
    expect(seen).toEqual([{ type: 'status', status: 'queued', at: expect.any(String) }]);
  }, 30_000);

  it('waits out a 429 (its Retry-After) and opens the stream again; a 404 is final', async () => {
    const opened: Opened = [];
    const limited = async (url: string, init: RequestInit) => {
      const response = await logsOpened(opened)(url, init);
      if (!url.endsWith('/logs') || opened.length > 1) return response;
      await response.body?.cancel();
      return Response.json(
        { error: 'rate_limit_exceeded', retryAfter: 0 },
        { status: 429, headers: { 'retry-after': '0' } },
      );
    };
    const { client, id, userId } = await deploymentOf(limited);
    const received = await followBuild(client, id, userId);
    expect(opened.slice(0, 2)).toEqual([null, null]);
    expect(received.filter(({ event }) => event.type === 'log')).toHaveLength(5);

    const unknown = client.deployments.follow('dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M');
    await expect(unknown.next()).rejects.toMatchObject({ name: 'NotFoundError', status: 404 });
  }, 30_000);
});
