import { parseEmf } from '../support/emf.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import type { JsonResponse } from '../support/http.ts';
import { call } from '../support/http.ts';
import { captureLogs } from '../support/logs.ts';
import { uniqueEmail } from '../support/names.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';

// Each access line carries its route's metrics in CloudWatch's Embedded Metric Format; these
// requests go through the local gateway to the handlers Lambda runs, and their lines are read back
// as CloudWatch Logs would read them.

// Logging is on for this suite (the run keeps it silent): LOG_LEVEL is read when the service's
// modules load, so they are loaded after it is set.
let restoreSettings: () => void;
let gateway: TestGateway;
beforeAll(async () => {
  restoreSettings = overrideSettings({ LOG_LEVEL: 'info' });
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  restoreSettings();
});

/** The requests' answers and each one's access line, found by its X-Request-Id. */
async function withLines(
  requests: () => Promise<JsonResponse[]>,
): Promise<{ response: JsonResponse; line: string }[]> {
  const { result, lines } = await captureLogs(requests);
  return result.map((response) => {
    const id = response.headers.get('x-request-id');
    const line = lines.find((candidate) => candidate.includes(`"requestId":"${id}"`));
    if (!id || !line) throw new Error(`No access line for the request ${id}`);
    return { response, line };
  });
}

const dimensionsOf = (api: string, route: string) => [{ Service: 'platform-api', Api: api, Route: route }];
const values = (line: string) =>
  Object.fromEntries(Object.entries(parseEmf(line).metrics).map(([name, metric]) => [name, metric.value]));

describe('the metrics in the access line', () => {
  it("carry a keyed read's route, outcome, admission and store latency", async () => {
    const { key } = await newCaller();
    const [created, read, missing] = await withLines(async () => {
      const project = await call(`${gateway.baseUrl}/projects`, { method: 'POST', key, json: { name: 'm' } });
      const { id } = project.body as { id: string };
      return [
        project,
        await call(`${gateway.baseUrl}/projects/${id}`, { key }),
        await call(`${gateway.baseUrl}/projects/prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A`, { key }),
      ];
    });
    if (!created || !read || !missing) throw new Error('missing answers');
    expect([created.response.status, read.response.status, missing.response.status]).toEqual([201, 200, 404]);
    const emf = parseEmf(read.line);
    expect(emf.namespace).toBe('PlatformApi');
    // The row's path, never the id the client sent.
    expect(emf.dimensions).toEqual(dimensionsOf('platform', 'GET /projects/{id}'));
    expect(emf.metrics).toEqual({
      Requests: { value: 1, unit: 'Count' },
      ClientErrors: { value: 0, unit: 'Count' },
      ServerErrors: { value: 0, unit: 'Count' },
      RateLimited: { value: 0, unit: 'Count' },
      Latency: { value: expect.any(Number), unit: 'Milliseconds' },
      AdmissionLatency: { value: expect.any(Number), unit: 'Milliseconds' },
      // The counting admission, then the project.
      DynamoDBCalls: { value: 2, unit: 'Count' },
      DynamoDBLatency: { value: expect.any(Number), unit: 'Milliseconds' },
      DynamoDBMaxLatency: { value: expect.any(Number), unit: 'Milliseconds' },
    });
    const {
      Latency = 0,
      AdmissionLatency = 0,
      DynamoDBLatency = 0,
      DynamoDBMaxLatency = 0,
    } = values(read.line);
    expect(AdmissionLatency).toBeGreaterThan(0);
    expect(DynamoDBMaxLatency).toBeGreaterThan(0);
    expect(DynamoDBMaxLatency).toBeLessThanOrEqual(DynamoDBLatency);
    expect(DynamoDBLatency).toBeLessThanOrEqual(Latency);
    expect(AdmissionLatency).toBeLessThanOrEqual(Latency);
    expect(values(missing.line)).toMatchObject({ Requests: 1, ClientErrors: 1, ServerErrors: 0 });
    expect(parseEmf(created.line).dimensions).toEqual(dimensionsOf('platform', 'POST /projects'));
  });

  it('count a rate-limited request as a 4xx and a 429', async () => {
    const { key } = await newCaller({ rateLimit: 1 });
    const [, limited] = await withLines(async () => [
      await call(`${gateway.baseUrl}/projects`, { key }),
      await call(`${gateway.baseUrl}/projects`, { key }),
    ]);
    expect(limited?.response.status).toBe(429);
    expect(values(limited?.line ?? '')).toMatchObject({ Requests: 1, ClientErrors: 1, RateLimited: 1 });
  });

  it('count failed logins on the login route', async () => {
    const email = uniqueEmail('metrics');
    const password = 'metrics passphrase';
    const post = (path: string, json: unknown) =>
      call(`${gateway.backendUrl}${path}`, { method: 'POST', json });
    await post('/auth/register', { email, password });
    const [failed, succeeded] = await withLines(async () => [
      await post('/auth/login', { email, password: `${password}!` }),
      await post('/auth/login', { email, password }),
    ]);
    expect([failed?.response.status, succeeded?.response.status]).toEqual([401, 200]);
    expect(parseEmf(failed?.line ?? '').dimensions).toEqual(dimensionsOf('backend', 'POST /auth/login'));
    expect(values(failed?.line ?? '')).toMatchObject({ LoginFailures: 1, ClientErrors: 1 });
    expect(values(succeeded?.line ?? '')).toMatchObject({ LoginFailures: 0, ClientErrors: 0 });
  });

  it("name the fallback's row for unknown paths, and leave out what a route does not do", async () => {
    const [unknown, health] = await withLines(async () => [
      await call(`${gateway.backendUrl}/no/such/path/123`),
      await call(`${gateway.backendUrl}/health`),
    ]);
    expect(unknown?.response.status).toBe(404);
    expect(parseEmf(unknown?.line ?? '').dimensions).toEqual(dimensionsOf('backend', 'ANY /{proxy+}'));
    expect(Object.keys(values(unknown?.line ?? ''))).toEqual([
      'Requests',
      'ClientErrors',
      'ServerErrors',
      'RateLimited',
      'Latency',
    ]);
    // No admission on a public route; its store check is a call.
    const healthValues = values(health?.line ?? '');
    expect(healthValues).not.toHaveProperty('AdmissionLatency');
    expect(healthValues).not.toHaveProperty('LoginFailures');
    expect(healthValues.DynamoDBCalls).toBeGreaterThanOrEqual(1);
  });
});
