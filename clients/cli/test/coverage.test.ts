import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationTable } from '../../typescript/src/generated/operations.ts';

// Every operation of the document is either called by a command of the CLI (its SDK method appears
// in clients/cli/src as `.<group>.<method>(`) or listed below with why not: a route that lands
// without its command fails here, naming it, until it gets one or a reason.

/** The operations no command calls, and why. */
const NOT_IN_CLI: Record<string, string> = {
  reportDeploymentEvent: "the builder's: it reports a build's progress",
  appendDeploymentLogs: "the builder's: it writes a build's log",
  getBuildEnvironment: "the builder's: it reads the variables a build runs with",
  listUsers: "the service admin's (/api/v1/users), not a user's",
  getHealth: 'for load balancers and probes',
  getOpenApiDocument: 'the document itself, for tools',
  getDocs: 'a page for browsers',
  getDocsStylesheet: 'a page for browsers',
  getDocsRenderer: 'a page for browsers',
  getDocsInitScript: 'a page for browsers',
};

const SOURCES = join(import.meta.dirname, '..', 'src');
const source = readdirSync(SOURCES, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => readFileSync(join(SOURCES, file), 'utf8'))
  .join('\n');

const called = (row: (typeof operationTable)[number]) => source.includes(`.${row.group}.${row.name}(`);

describe('the CLI and the document', () => {
  it('has a command for every operation, or says why not', () => {
    const missing = operationTable.filter((row) => !called(row) && !NOT_IN_CLI[row.id]);
    if (missing.length > 0) {
      throw new Error(
        [
          `${missing.length} operation(s) have no command in clients/cli (nor a reason in NOT_IN_CLI):`,
          ...missing.map(
            (row) => `  - ${row.id} (client.${row.group}.${row.name}: ${row.method} ${row.path})`,
          ),
        ].join('\n'),
      );
    }
  });

  it('gives reasons only for operations that exist and that no command calls', () => {
    const stale = Object.keys(NOT_IN_CLI).filter((id) => {
      const row = operationTable.find((candidate) => candidate.id === id);
      return !row || called(row);
    });
    expect(stale).toEqual([]);
  });
});
