import { readFile } from 'node:fs/promises';

// Chromium's own record of its network activity (`--log-net-log`). It says who asked for each
// request: a page's navigation is a `main frame` request, and everything the page loads names the
// page's origin as its initiator. Chromium's own traffic (component updates, account checks, and
// autofill's queries about a page's forms, filed under that page) has no origin as initiator.

export interface LoggedRequest {
  url: string;
  /** The site of the top-level page the request was made for, e.g. `http://127.0.0.1`. */
  topFrameSite: string;
  /** The origin that asked for it (a page's, for its subresources), or `not an origin`. */
  initiator: string;
  /** `main frame` for a navigation. */
  requestType: string;
}

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: {
    type: number;
    params?: { url?: unknown; network_isolation_key?: unknown; initiator?: unknown; request_type?: unknown };
  }[];
}

/** A log Chromium did not get to close (it was killed) lacks the final `]}`. */
function parseNetLog(text: string): NetLog {
  try {
    return JSON.parse(text) as NetLog;
  } catch {
    return JSON.parse(`${text.trimEnd().replace(/,$/, '')}]}`) as NetLog;
  }
}

/** Whether a page asked for the request (rather than the browser's own services). */
export const isPageRequest = (request: LoggedRequest): boolean =>
  request.requestType === 'main frame' || URL.canParse(request.initiator);

/** Every URL request in a Chromium net log, with the page it was made for and who asked. */
export async function loggedRequests(path: string): Promise<LoggedRequest[]> {
  const log = parseNetLog(await readFile(path, 'utf8'));
  const startJob = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  if (startJob === undefined) throw new Error(`${path} is not a Chromium net log`);
  return log.events.flatMap(({ type, params }) => {
    if (type !== startJob || typeof params?.url !== 'string') return [];
    const key = typeof params.network_isolation_key === 'string' ? params.network_isolation_key : '';
    return [
      {
        url: params.url,
        topFrameSite: key.split(' ')[0] ?? '',
        initiator: String(params.initiator ?? ''),
        requestType: String(params.request_type ?? ''),
      },
    ];
  });
}
