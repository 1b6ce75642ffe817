import * as log from '#shared/runtime/log.ts';
import { captureLogs } from '../../support/logs.ts';
import { overrideSettings } from '../../support/settings.ts';

// The log lines: one JSON object each, with what the caller passed and nothing else. Logging is on
// for this suite (the run keeps access lines silent; LOG_LEVEL is read when the modules load).

let restoreSettings: () => void;
beforeAll(async () => {
  restoreSettings = overrideSettings({ LOG_LEVEL: 'info' });
});
afterAll(() => restoreSettings());

describe('log lines', () => {
  it('writes an info line as one JSON object with its fields, leaving out the undefined ones', async () => {
    const { lines } = await captureLogs(async () =>
      log.logInfo('request', { requestId: 'r1', status: 200, userId: undefined, cached: false }),
    );
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 'info', message: 'request', requestId: 'r1', status: 200, cached: false },
    ]);
  });

  it("writes an error line with the cause's name, message and stack", async () => {
    const cause = new RangeError('out of range');
    const { lines } = await captureLogs(async () =>
      log.logError('unhandled error', { requestId: 'r2' }, cause),
    );
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      level: 'error',
      message: 'unhandled error',
      requestId: 'r2',
      error: { name: 'RangeError', message: 'out of range', stack: cause.stack },
    });
  });

  it('writes a thrown value that is no Error as text', async () => {
    const { lines } = await captureLogs(async () => log.logError('local gateway: request failed', {}, 42));
    expect(JSON.parse(lines[0] ?? '')).toEqual({
      level: 'error',
      message: 'local gateway: request failed',
      error: { value: '42' },
    });
  });
});
