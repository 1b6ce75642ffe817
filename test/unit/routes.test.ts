import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tables } from '../../shared/db/tables.ts';
import { routes } from '../../shared/routes.ts';

const functionsDir = join(import.meta.dirname, '../../functions');

describe('the route table', () => {
  it.each(routes.map((route) => [`${route.method} ${route.path} (${route.api})`, route]))(
    '%s has its function file',
    (_name, route) => {
      expect(existsSync(join(functionsDir, `${route.handler}.ts`))).toBe(true);
    },
  );

  it('has a row for every function file, and one row per file', () => {
    const files = readdirSync(functionsDir).map((file) => file.replace(/\.ts$/, ''));
    expect([...files].sort()).toEqual(routes.map((route) => route.handler).sort());
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
      expect(route.tables).toMatchObject({ apiKeys: 'write', rateLimits: 'write' });
    }
  });

  it('names only declared tables', () => {
    for (const route of routes) {
      for (const table of Object.keys(route.tables)) expect(Object.keys(tables)).toContain(table);
    }
  });
});
