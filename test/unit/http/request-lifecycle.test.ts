import { errorShaping } from '#shared/http/answers/error-response.ts';
import { requestLifecycle } from '#shared/http/request-lifecycle.ts';
import type { ProxyResult } from '#shared/http/types.ts';
import { NotFoundError } from '#shared/model/errors.ts';
import { personalTeamOf } from '#shared/model/teams.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import { captureLogs } from '../../support/logs.ts';
import { proxyEvent, runChain, type TestHandler } from '../../support/proxy-events.ts';
import { overrideSettings } from '../../support/settings.ts';

// requestLifecycle: the request's state from API Gateway's event, X-Request-Id on every answer,
// and one access log line per request. Logging is on for this suite (the run keeps it silent).

let restoreSettings: () => void;
const modules = { requestLifecycle, errorShaping, clock, NotFoundError };
beforeAll(() => {
  restoreSettings = overrideSettings({ LOG_LEVEL: 'info' });
});
afterAll(() => restoreSettings());
restoreClockAfterEach();

/** No route rows: the access line without its metrics (test/unit/metrics.test.ts covers those). */
const NO_ROWS = [] as const;

/** Pins the clock at `start` and moves it by `durationMs` while the handler runs. */
function timed(durationMs: number, answer: () => ProxyResult): TestHandler {
  return async () => {
    modules.clock.now = () => 1_795_338_942_000 + durationMs;
    return answer();
  };
}

describe('request lifecycle', () => {
  it('opens the state from the event: request id, source address and the start time', async () => {
    modules.clock.now = () => 1_795_338_942_000;
    const event = proxyEvent({ requestId: 'req-state', sourceIp: '198.51.100.23' });
    const { result } = await captureLogs(() => runChain([modules.requestLifecycle(NO_ROWS)], event));
    expect(result.context.state).toEqual({
      requestId: 'req-state',
      sourceIp: '198.51.100.23',
      startedAt: 1_795_338_942_000,
      startedAtMonotonic: expect.any(Number),
    });
  });

  it('stamps X-Request-Id on the answer and writes one access line with status, duration and caller', async () => {
    modules.clock.now = () => 1_795_338_942_000;
    const event = proxyEvent({ requestId: 'req-ok', method: 'GET', resource: '/projects/{id}' });
    const { result, lines } = await captureLogs(() =>
      runChain(
        [modules.requestLifecycle(NO_ROWS)],
        event,
        timed(37, () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{}' })),
      ),
    );
    expect(result.result).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req-ok' },
      body: '{}',
    });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        level: 'info',
        message: 'request',
        requestId: 'req-ok',
        method: 'GET',
        resource: '/projects/{id}',
        status: 200,
        durationMs: 37,
      },
    ]);
  });

  it('names the caller in the access line once admission found one', async () => {
    const event = proxyEvent({ requestId: 'req-caller' });
    const { lines } = await captureLogs(() =>
      runChain([modules.requestLifecycle(NO_ROWS)], event, async (_event, context) => {
        context.state.caller = {
          userId: 'usr_logged',
          role: 'member',
          keyId: 'key_1',
          keyName: 'laptop',
          keyHash: 'digest',
          scopes: ['read', 'write'],
          keyExpiresAt: 1_800_000_000,
          team: personalTeamOf('usr_logged'),
        };
        return { statusCode: 204, headers: {}, body: '' };
      }),
    );
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ userId: 'usr_logged', status: 204 });
  });

  it('stamps and logs error answers too', async () => {
    const event = proxyEvent({ requestId: 'req-404', method: 'DELETE', resource: '/keys/{id}' });
    const { result, lines } = await captureLogs(() =>
      runChain([modules.requestLifecycle(NO_ROWS), modules.errorShaping()], event, async () => {
        throw new modules.NotFoundError('API key not found');
      }),
    );
    expect(result.result.statusCode).toBe(404);
    expect(result.result.headers).toMatchObject({ 'X-Request-Id': 'req-404' });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      message: 'request',
      requestId: 'req-404',
      method: 'DELETE',
      resource: '/keys/{id}',
      status: 404,
    });
  });
});
