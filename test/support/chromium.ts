import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { type LoggedRequest, loggedRequests } from './net-log.ts';

const run = promisify(execFile);

/** The `chromium` on the PATH (Debian's package), as `command -v chromium` finds it; undefined if none. */
export function findChromium(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'chromium');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export interface RenderOptions {
  /** Every request, loopback included, goes through this proxy. */
  proxyUrl: string;
  /** Where to write a PNG of the viewport once the page has settled. */
  screenshotPath?: string;
  windowSize?: { width: number; height: number };
}

export interface RenderedPage {
  /** The DOM after the page's scripts ran, serialized. */
  dom: string;
  /** Chromium's own log of every URL request it made, with the page each was for. */
  requests: LoggedRequest[];
}

/**
 * Loads `url` in headless Chromium with a fresh profile, lets its scripts run until the network is
 * idle (virtual time), and returns the DOM. No test framework's browser download is involved.
 */
export async function renderPage(
  chromium: string,
  url: string,
  options: RenderOptions,
): Promise<RenderedPage> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-'));
  const netLog = join(profile, 'net-log.json');
  const { width, height } = options.windowSize ?? { width: 1280, height: 1600 };
  try {
    const { stdout } = await run(
      chromium,
      [
        '--headless',
        '--no-sandbox', // CI runs as root, where Chromium's sandbox cannot start
        '--disable-gpu',
        `--user-data-dir=${profile}`,
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-extensions',
        '--disable-sync',
        // Through the proxy, loopback too (`<-loopback>` drops Chromium's implicit bypass of it), and
        // no host name resolves here, so nothing can skip the proxy either.
        `--proxy-server=${options.proxyUrl}`,
        '--proxy-bypass-list=<-loopback>',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
        '--disable-quic',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
        `--log-net-log=${netLog}`,
        '--virtual-time-budget=15000',
        `--window-size=${width},${height}`,
        '--hide-scrollbars',
        ...(options.screenshotPath ? [`--screenshot=${options.screenshotPath}`] : []),
        '--dump-dom',
        url,
      ],
      { timeout: 60_000, maxBuffer: 32 * 1024 * 1024 },
    );
    return { dom: stdout, requests: await loggedRequests(netLog) };
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
