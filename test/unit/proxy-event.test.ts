import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProxyEvent, requestTime } from '#infra/local/proxy-event.ts';
import { parseRequestTarget } from '#infra/local/request-target.ts';
import { matchRequest } from '#infra/local/router.ts';

// An event API Gateway's REST proxy integration sent (the team's reference, ../shared/fixtures).
const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/apigw-rest-proxy-event.json'), 'utf8'),
);

const keysOf = (value: object): string[] => Object.keys(value).sort();

function eventFor(method: string, url: string, rawHeaders: string[] = [], body = '') {
  const target = parseRequestTarget(url);
  if (!target) throw new Error(`${url} is not a request target`);
  return buildProxyEvent(
    { method, target, rawHeaders, body: Buffer.from(body), sourceIp: '203.0.113.7' },
    matchRequest(method, target.pathname),
    Date.UTC(2026, 10, 22, 9, 15, 42),
  );
}

describe('the local gateway builds the REST proxy event API Gateway sends', () => {
  const event = eventFor('GET', '/v1/projects/prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', [
    'Accept',
    'application/json',
    'authorization',
    'Bearer plat_example_not_a_real_key',
    'Host',
    'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com',
  ]);

  it('has every field of the fixture, at the top, in requestContext and in identity', () => {
    expect(keysOf(event)).toEqual(keysOf(fixture));
    // `authorizer` is in the aws-lambda type; API Gateway sends it when an authorizer is configured.
    expect(keysOf(event.requestContext).filter((key) => key !== 'authorizer')).toEqual(
      keysOf(fixture.requestContext),
    );
    expect(keysOf(event.requestContext.identity)).toEqual(
      expect.arrayContaining(keysOf(fixture.requestContext.identity)),
    );
  });

  it('fills resource, path, parameters and stage as the fixture shows them', () => {
    expect(event).toMatchObject({
      resource: fixture.resource,
      path: fixture.path,
      httpMethod: 'GET',
      pathParameters: fixture.pathParameters,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {
        resourcePath: fixture.requestContext.resourcePath,
        httpMethod: 'GET',
        path: fixture.requestContext.path,
        stage: 'v1',
        protocol: 'HTTP/1.1',
        requestTime: fixture.requestContext.requestTime,
        requestTimeEpoch: Date.UTC(2026, 10, 22, 9, 15, 42),
        domainName: fixture.requestContext.domainName,
        domainPrefix: fixture.requestContext.domainPrefix,
        identity: { sourceIp: '203.0.113.7' },
      },
    });
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the client header casing, the last value in headers and all values in multiValueHeaders', () => {
    const withRepeats = eventFor('GET', '/health', ['X-Tag', 'a', 'X-Tag', 'b', 'Host', 'localhost']);
    expect(withRepeats.headers).toEqual({ 'X-Tag': 'b', Host: 'localhost' });
    expect(withRepeats.multiValueHeaders).toEqual({ 'X-Tag': ['a', 'b'], Host: ['localhost'] });
  });

  it('decodes the query string into both query maps', () => {
    const listing = eventFor('GET', '/v1/projects?limit=5&tag=a%20b&tag=c');
    expect(listing.queryStringParameters).toEqual({ limit: '5', tag: 'c' });
    expect(listing.multiValueQueryStringParameters).toEqual({ limit: ['5'], tag: ['a b', 'c'] });
  });

  it('passes a body as text', () => {
    expect(eventFor('POST', '/v1/deployments', [], '{"projectId":"x"}').body).toBe('{"projectId":"x"}');
  });

  it('formats requestTime like API Gateway', () => {
    expect(requestTime(Date.UTC(2026, 0, 5, 7, 8, 9))).toBe('05/Jan/2026:07:08:09 +0000');
  });
});
