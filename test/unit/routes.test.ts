import { existsSync } from 'node:fs';
import { handlerEntries, handlerEntry } from '#infra/handler-entries.ts';
import { consumerHandlers } from '#shared/consumers.ts';
import { tables } from '#shared/db/tables.ts';
import { handlers, operations, routes, rowsOf, takesIdempotencyKey } from '#shared/routes.ts';

describe('the route table', () => {
  it.each(routes.map((route) => [`${route.method} ${route.path} (${route.api})`, route]))(
    '%s has its function file',
    (_name, route) => {
      expect(existsSync(handlerEntry(route.handler))).toBe(true);
    },
  );

  it('has a row, or a consumer, for every function file, each in a feature folder', () => {
    expect([...handlerEntries().keys()].sort()).toEqual([...handlers(), ...consumerHandlers()].sort());
  });

  it('gives the rows that share a handler one group, access, table grants and memory: they are one function', () => {
    for (const handler of handlers()) {
      const shared = rowsOf(handler).map(({ api, access, tables: grants, memoryMb }) => ({
        api,
        access,
        grants,
        memoryMb,
      }));
      expect(new Set(shared.map((row) => JSON.stringify(row))).size).toBe(1);
    }
  });

  it('gives every operation a unique camelCase operationId', () => {
    const ids = operations().map((route) => route.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists each method and path of a group once', () => {
    const keys = routes.map((route) => `${route.api} ${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives each group exactly one fallback', () => {
    for (const api of ['platform', 'backend']) {
      expect(routes.filter((route) => route.api === api && route.method === 'ANY')).toHaveLength(1);
    }
  });

  it('grants the key and counter tables to every key-protected route, which writes them on each request', () => {
    for (const route of routes.filter((candidate) => candidate.access === 'apiKey')) {
      expect(route.tables.apiKeys).toContain('UpdateItem');
      expect(route.tables.rateLimits).toEqual(['UpdateItem']);
    }
  });

  it('grants the idempotency table to every route that takes an Idempotency-Key, and to no other', () => {
    for (const route of routes) {
      expect({ route: route.path, idempotency: route.tables.idempotency }).toEqual({
        route: route.path,
        idempotency: takesIdempotencyKey(route) ? ['PutItem', 'UpdateItem'] : undefined,
      });
    }
  });

  it('names only declared tables', () => {
    for (const route of routes) {
      for (const table of Object.keys(route.tables)) expect(Object.keys(tables)).toContain(table);
    }
  });
});
