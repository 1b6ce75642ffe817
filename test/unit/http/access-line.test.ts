import { accessLineFormat } from '#shared/http/access-line.ts';
import { requestLifecycle } from '#shared/http/request-lifecycle.ts';
import { routes } from '#shared/routes.ts';
import { captureLogs } from '../../support/logs.ts';
import { proxyEvent, runChain } from '../../support/proxy-events.ts';
import { overrideSettings } from '../../support/settings.ts';

// The access line as a person at `npm start`'s terminal reads it (issue 22, item 7): one short line
// per request (method, path, status, duration, request id), and the JSON line with the metrics where
// stdout is not a terminal or LOG_FORMAT=json says so.

async function accessLines(isTTY: boolean): Promise<string[]> {
  // LOG_FORMAT unset, as in `npm start` without it (the test run sets json): the terminal decides.
  const restore = overrideSettings({ LOG_LEVEL: 'info', LOG_FORMAT: undefined });
  const wasTTY = process.stdout.isTTY;
  process.stdout.isTTY = isTTY;
  try {
    const event = proxyEvent({ requestId: 'req-line', method: 'GET', resource: '/projects' });
    const rows = routes.filter((route) => route.handler === 'list-projects');
    const { lines } = await captureLogs(() => runChain([requestLifecycle(rows)], event));
    return lines;
  } finally {
    process.stdout.isTTY = wasTTY;
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
    expect(accessLineFormat('json', true)).toBe('json');
    expect(accessLineFormat('text', false)).toBe('text');
    const restore = overrideSettings({ LOG_FORMAT: undefined });
    try {
      expect(accessLineFormat(undefined, true)).toBe('text');
      expect(accessLineFormat(undefined, undefined)).toBe('json');
    } finally {
      restore();
    }
  });
});
