import { captureLogs } from '../../support/logs.ts';
import { proxyEvent, runChain } from '../../support/proxy-events.ts';
import { overrideSettings } from '../../support/settings.ts';

// The access line as a person at `npm start`'s terminal reads it (issue 22, item 7): one short line
// per request (method, path, status, duration, request id), and the JSON line with the metrics where
// stdout is not a terminal or LOG_FORMAT=json says so.

type Lifecycle = typeof import('#shared/http/request-lifecycle.ts').requestLifecycle;

async function accessLines(isTTY: boolean): Promise<string[]> {
  const restore = overrideSettings({ LOG_LEVEL: 'info' });
  // Unset, as in `npm start` without it (the test run sets json): the terminal decides.
  const runFormat = process.env.LOG_FORMAT;
  delete process.env.LOG_FORMAT;
  const wasTTY = process.stdout.isTTY;
  process.stdout.isTTY = isTTY;
  try {
    const { requestLifecycle } = (await import('#shared/http/request-lifecycle.ts')) as {
      requestLifecycle: Lifecycle;
    };
    const { routes } = await import('#shared/routes.ts');
    const event = proxyEvent({ requestId: 'req-line', method: 'GET', resource: '/projects' });
    const rows = routes.filter((route) => route.handler === 'list-projects');
    const { lines } = await captureLogs(() => runChain([requestLifecycle(rows)], event));
    return lines;
  } finally {
    process.stdout.isTTY = wasTTY;
    if (runFormat !== undefined) process.env.LOG_FORMAT = runFormat;
    restore();
  }
}

describe('the access line', () => {
  it('is a short line of text on a terminal', async () => {
    const lines = await accessLines(true);
    expect(lines).toEqual([expect.stringMatching(/^GET \/v1\/projects 200 \d+ ms req-line$/)]);
  });

  it('is the JSON line with the metrics where stdout is not a terminal', async () => {
    const [line] = await accessLines(false);
    expect(JSON.parse(line ?? '')).toMatchObject({
      message: 'request',
      requestId: 'req-line',
      _aws: expect.any(Object),
    });
  });

  it('follows LOG_FORMAT wherever it runs, and stdout when it is unset', async () => {
    const { accessLineFormat } = await import('#shared/http/access-line.ts');
    expect(accessLineFormat('json', true)).toBe('json');
    expect(accessLineFormat('text', false)).toBe('text');
    expect(accessLineFormat(undefined, true)).toBe('text');
    expect(accessLineFormat(undefined, undefined)).toBe('json');
  });
});
