import { randomBytes } from 'node:crypto';
import { tables } from '#shared/db/tables.ts';

/**
 * The environment the stack gives each function, for a local run: every table under its local
 * name, the DynamoDB endpoint, and a cursor-signing secret (random per run unless one is set).
 */
export function localEnvironment(
  endpoint: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const tableNames = Object.fromEntries(
    Object.values(tables).map((table) => [table.envVar, table.localName]),
  );
  return {
    ...tableNames,
    DYNAMODB_ENDPOINT: endpoint,
    CURSOR_SECRET: env.CURSOR_SECRET ?? randomBytes(32).toString('hex'),
  };
}
