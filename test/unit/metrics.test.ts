import { metricFields, rowServing } from '#shared/http/metrics.ts';
import { routes, rowsOf } from '#shared/routes.ts';
import { parseEmf } from '../support/emf.ts';

const NOW = Date.UTC(2026, 10, 22, 12);

function rowOf(handler: string) {
  const [row] = rowsOf(handler);
  if (!row) throw new Error(`No row for ${handler}`);
  return row;
}

const valuesOf = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(parseEmf(JSON.stringify(fields)).metrics).map(([n, m]) => [n, m.value]));

describe('metricFields', () => {
  it('counts a 500 as a server error, and its store calls', () => {
    const fields = metricFields(
      {
        route: rowOf('create-deployment'),
        status: 500,
        durationMs: 1234.5678,
        admissionMs: 4.321,
        store: { calls: 3, totalMs: 1200.004, maxMs: 1000.006 },
      },
      NOW,
    );
    expect(valuesOf(fields)).toEqual({
      Requests: 1,
      ClientErrors: 0,
      ServerErrors: 1,
      RateLimited: 0,
      Latency: 1234.57,
      AdmissionLatency: 4.32,
      DynamoDBCalls: 3,
      DynamoDBLatency: 1200,
      DynamoDBMaxLatency: 1000.01,
    });
    expect(fields).toMatchObject({ _aws: { Timestamp: NOW }, Route: 'POST /deployments', Api: 'platform' });
  });

  it('leaves the route out of the dimensions and the line when metrics are per API only', () => {
    const outcome = {
      route: rowOf('get-project'),
      status: 200,
      durationMs: 5,
      admissionMs: 1,
      store: undefined,
    };
    const perApi = metricFields(outcome, NOW, false);
    const parsed = parseEmf(JSON.stringify(perApi));
    expect(parsed.dimensions).toEqual([{ Service: 'platform-api', Api: 'platform' }]);
    expect(perApi).not.toHaveProperty('Route');
    expect(parseEmf(JSON.stringify(metricFields(outcome, NOW, true))).dimensions).toEqual([
      { Service: 'platform-api', Api: 'platform', Route: 'GET /projects/{id}' },
    ]);
  });

  it('makes a valid EMF line for every row of the route table, at every status', () => {
    for (const route of routes) {
      for (const status of [200, 201, 204, 400, 401, 404, 429, 500, 503]) {
        const fields = metricFields({ route, status, durationMs: 1, admissionMs: 1, store: undefined }, NOW);
        expect(() => parseEmf(JSON.stringify(fields))).not.toThrow();
      }
    }
  });
});

describe('rowServing', () => {
  it("finds the docs function's row by resource, and gives a fallback's other resources its own row", () => {
    expect(rowServing(rowsOf('docs'), 'GET', '/docs/init.js')?.path).toBe('/docs/init.js');
    // API Gateway sends a 405 on a known resource to the fallback: its metrics stay on its row.
    expect(rowServing(rowsOf('platform-fallback'), 'PUT', '/projects/{id}')).toBe(rowOf('platform-fallback'));
  });
});
