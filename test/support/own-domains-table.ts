import { randomUUID } from 'node:crypto';
import { localClient } from '#infra/local/dynamodb-local.ts';
import { createTableAs } from '#infra/local/ensure-tables.ts';
import { tables } from '#shared/db/tables.ts';

// A domains table of one test file's own. Files that move the clock make every pending domain in
// their table due, and the background check would then check (and expire) other files' domains too.

/** The settings that name this file's own domains table: pass them to overrideSettings. */
export const ownDomainsTableSettings = (): { DOMAINS_TABLE: string } => ({
  DOMAINS_TABLE: `platform-domains-${randomUUID().slice(0, 8)}`,
});

/** Makes the table those settings name, in the run's DynamoDB Local (after overrideSettings). */
export async function createOwnDomainsTable(): Promise<void> {
  const client = localClient(process.env.DYNAMODB_ENDPOINT ?? '');
  try {
    await createTableAs(client, tables.domains, process.env.DOMAINS_TABLE ?? '');
  } finally {
    client.destroy();
  }
}
