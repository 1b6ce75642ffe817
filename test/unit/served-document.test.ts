import type { Context } from 'aws-lambda';
import { publishedDocument } from '#shared/openapi/published-document.ts';
import { documentServedAt } from '#shared/openapi/served-document.ts';
import { handler } from '../../functions/service/docs.ts';
import { proxyEvent } from '../support/proxy-events.ts';
import { overrideSettings } from '../support/settings.ts';

// The served document's server defaults are where it was served from (issue 22, item 6), so that the
// docs page's "Try it out" calls this API: here the shape of a request API Gateway passes on in AWS.

type Servers = { url: string; variables: Record<string, { default: string }> }[];
type Document = { servers: Servers; paths: Record<string, { servers?: Servers }> };

const defaultsOf = (document: Document): string[] => [
  ...new Set(
    [document.servers, ...Object.values(document.paths).map((item) => item.servers ?? [])].flatMap(
      (servers) =>
        servers.flatMap((server) => Object.values(server.variables).map((variable) => variable.default)),
    ),
  ),
];

const addresses = { base_url: 'https://p.example.test/v1', backend_url: 'https://b.example.test/live' };

describe('documentServedAt', () => {
  it("sets every server variable's default, at the top and in each path, and changes nothing else", () => {
    const published = publishedDocument() as unknown as Document;
    const served = documentServedAt(publishedDocument(), addresses) as unknown as Document;
    expect(defaultsOf(published).sort()).toEqual(['http://localhost:3000', 'http://localhost:3000/v1']);
    expect(defaultsOf(served).sort()).toEqual([addresses.backend_url, addresses.base_url]);
    const stripped = (document: Document) =>
      JSON.stringify(document).replaceAll(/"default":"[^"]*"/g, '"default":""');
    expect(stripped(served)).toBe(stripped(published));
  });
});

describe('GET /openapi.json in AWS', () => {
  let restoreSettings: () => void;
  afterEach(() => restoreSettings());

  it("names the stack's platform URL and the backend URL the request came to", async () => {
    restoreSettings = overrideSettings({
      PLATFORM_BASE_URL: 'https://p1a2b3.execute-api.eu-west-1.amazonaws.com/v1',
    });
    const event = proxyEvent({ method: 'GET', resource: '/openapi.json', pathParameters: null });
    event.requestContext.path = '/live/openapi.json';
    const result = await handler(event, {} as Context);
    expect(result.statusCode).toBe(200);
    expect(defaultsOf(JSON.parse(result.body) as Document).sort()).toEqual([
      'https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/live',
      'https://p1a2b3.execute-api.eu-west-1.amazonaws.com/v1',
    ]);
  });
});
