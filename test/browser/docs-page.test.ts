import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { webhookEntries } from '#shared/openapi/webhooks.ts';
import { routes } from '#shared/routes.ts';
import { findChromium, type RenderedPage, renderPage } from '../support/chromium.ts';
import { isPageRequest } from '../support/net-log.ts';
import { type LocalServer, STARTED_WITHIN_MS, startNpmStart } from '../support/npm-start.ts';
import { type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.ts';

// The docs page as a person sees it: `npm start`'s server (with a store of its own), /docs opened
// in headless Chromium (Debian's `chromium`), every request the browser makes sent through a
// recording proxy on loopback that passes on only those for the local server. Swagger UI renders
// the operations client-side, so the DOM after its scripts ran is what is checked. The screenshot is
// kept as a CI artefact in CI_ARTIFACTS_DIR (default .ci/artifacts/, not in git).

const chromium = findChromium();
// A browser start plus Swagger UI's 1.7 MB script on a busy two-core machine: more than Jest's 30 s.
const BROWSER_TIMEOUT_MS = 90_000;
const ARTIFACTS = process.env.CI_ARTIFACTS_DIR ?? join(import.meta.dirname, '..', '..', '.ci', 'artifacts');

/** The operationIds Swagger UI shows (it does with `displayOperationId: true`), in page order. */
const renderedOperationIds = (dom: string): string[] =>
  [...dom.matchAll(/class="opblock-summary-operation-id"[^>]*>([^<]*)</g)].map((match) => match[1] ?? '');

const siteOf = (origin: string): string => {
  const { protocol, hostname } = new URL(origin);
  return `${protocol}//${hostname}`;
};

/** What the page asked for, by Chromium's own log, and what the proxy let through. */
function trafficOf(page: RenderedPage, proxy: RecordingProxy, origin: string) {
  const fromPage = page.requests.filter(
    (request) => request.topFrameSite === siteOf(origin) && isPageRequest(request),
  );
  return {
    pageUrls: fromPage.map((request) => request.url),
    offMachine: fromPage.map((request) => request.url).filter((url) => new URL(url).origin !== origin),
    forwarded: proxy.requests.filter((request) => request.forwarded).map((request) => request.target),
    refused: proxy.requests.filter((request) => !request.forwarded).map((request) => request.target),
  };
}

// A prerequisite like Java for DynamoDB Local: missing, the test fails saying how to install it
// (.ci/run installs it), rather than passing by skipping.
const browser = (): string => {
  if (!chromium) {
    throw new Error(
      "No `chromium` on the PATH: install Debian's package (apt-get install -y chromium); .ci/run does",
    );
  }
  return chromium;
};

// One server and one render for both describes' checks: each `npm start` runs a DynamoDB Local of its
// own, and each render a Chromium, the two costliest things this file does.
describe('GET /docs in headless Chromium, from `npm start` on another port than 3000', () => {
  let server: LocalServer;
  let proxy: RecordingProxy;
  let page: RenderedPage;
  const screenshot = join(ARTIFACTS, 'docs-page.png');
  beforeAll(async () => {
    server = await startNpmStart();
    proxy = await startRecordingProxy(server.backendUrl);
    await mkdir(ARTIFACTS, { recursive: true });
    page = await renderPage(browser(), `${server.backendUrl}/docs`, {
      proxyUrl: proxy.url,
      screenshotPath: screenshot,
      // Tall enough for the description and every operation in one picture.
      windowSize: { width: 1280, height: 3000 },
    });
  }, STARTED_WITHIN_MS + BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  it('shows every operation by its operationId, loading nothing from off the machine', async () => {
    const traffic = trafficOf(page, proxy, server.backendUrl);
    const record = {
      pageRequests: traffic.pageUrls,
      chromium: page.requests,
      throughProxy: proxy.requests,
    };
    await writeFile(join(ARTIFACTS, 'docs-page-requests.json'), `${JSON.stringify(record, null, 2)}\n`);

    // The routes' operations, and the webhooks' (the deliveries the document describes).
    const operationIds = [
      ...routes.flatMap((route) => (route.operationId ? [route.operationId] : [])),
      ...Object.values(webhookEntries()).flatMap((entry) =>
        entry?.post?.operationId ? [entry.post.operationId] : [],
      ),
    ];
    expect(operationIds.length).toBeGreaterThan(0);
    expect(renderedOperationIds(page.dom).sort()).toEqual([...operationIds].sort());

    // The page asked only the local server for anything, and every such request went through
    // the recorder (so loopback traffic was not exempt from it). Whatever Chromium tried for
    // itself (update checks, autofill) the recorder refused: it forwards to one origin only,
    // which the last test shows. The full record is kept next to the screenshot.
    expect(traffic.offMachine).toEqual([]);
    expect(traffic.pageUrls).toEqual(
      expect.arrayContaining([`${server.backendUrl}/docs`, `${server.backendUrl}/openapi.json`]),
    );
    expect(traffic.forwarded).toEqual(expect.arrayContaining(traffic.pageUrls));
    const statusOf = (path: string) =>
      proxy.requests.find((request) => request.target === `${server.backendUrl}${path}`)?.status;
    expect([statusOf('/docs'), statusOf('/openapi.json')]).toEqual([200, 200]);
  });

  it('"Try it out" computes the request URLs from that server\'s port, for both groups', async () => {
    expect(new URL(server.backendUrl).port).not.toBe('3000');
    // Swagger UI shows the URL "Try it out" sends to as the servers block's computed URL: the
    // document's first server, the platform group's {base_url}.
    const computed = [...page.dom.matchAll(/Computed URL:\s*<code>([^<]*)<\/code>/g)].map(
      (match) => match[1],
    );
    expect(computed).toEqual([`${server.backendUrl}/v1`]);
    // The backend group's operations carry their own server, {backend_url}, from the same document.
    const served = (await (await fetch(`${server.backendUrl}/openapi.json`)).json()) as {
      servers: { variables: Record<string, { default: string }> }[];
    };
    expect(served.servers.map(({ variables }) => Object.values(variables)[0]?.default)).toEqual([
      `${server.backendUrl}/v1`,
      server.backendUrl,
    ]);
  });
});

describe('the off-machine check itself', () => {
  it(
    'notices when a page reaches for another machine, and lets none of it out',
    async () => {
      // A page that would break the rule, served on loopback: the check above must be able to fail.
      const leaky = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(
          '<script src="https://cdn.example.com/swagger-ui.js"></script><img src="http://example.com/pixel.png">',
        );
      });
      await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}`;
      const leakyProxy = await startRecordingProxy(origin);
      try {
        const page = await renderPage(browser(), `${origin}/`, { proxyUrl: leakyProxy.url });
        const traffic = trafficOf(page, leakyProxy, origin);
        expect(traffic.offMachine.sort()).toEqual([
          'http://example.com/pixel.png',
          'https://cdn.example.com/swagger-ui.js',
        ]);
        expect(traffic.refused).toEqual(
          expect.arrayContaining(['cdn.example.com:443', 'http://example.com/pixel.png']),
        );
        expect(traffic.forwarded.every((url) => url.startsWith(`${origin}/`))).toBe(true);
      } finally {
        await leakyProxy.close();
        leaky.closeAllConnections();
        await new Promise((resolve) => leaky.close(resolve));
      }
    },
    BROWSER_TIMEOUT_MS,
  );
});
