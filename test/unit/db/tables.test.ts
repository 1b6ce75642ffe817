import { streamConsumers } from '#shared/consumers.ts';
import { auditedTables } from '#shared/db/audit/kinds.ts';
import { indexes, type TableDefinition, tableKeys, tables } from '#shared/db/tables.ts';

// Queries name indexes through `indexes` (shared/db/tables.ts): it must hold every declared index,
// under its declared name and keys, and nothing else.

describe('the declared indexes, as queries use them', () => {
  it.each(tableKeys)('holds every index of the %s table with its name and keys', (key) => {
    const declared = (tables[key] as TableDefinition).indexes ?? {};
    expect(indexes[key]).toEqual(
      Object.fromEntries(Object.entries(declared).map(([name, index]) => [name, { ...index, name }])),
    );
  });

  it('names the indexes the key list, the user list and the project lists query', () => {
    expect(indexes.apiKeys.ownerKeys).toEqual({
      name: 'ownerKeys',
      partitionKey: 'userId',
      sortKey: 'keyId',
      projection: 'KEYS_ONLY',
    });
    expect(indexes.users.byCreation).toEqual({ name: 'byCreation', partitionKey: 'listing', sortKey: 'id' });
    expect(indexes.deployments.byProject).toEqual({
      name: 'byProject',
      partitionKey: 'projectId',
      sortKey: 'id',
    });
  });
});

describe('which tables the audit log watches, as the tables declare it', () => {
  it('feeds the recorder the stream of every audited table that has one, and no other', async () => {
    const recorder = streamConsumers.find(({ handler }) => handler === 'record-audit-events');
    const audited = tableKeys.filter((key) => tables[key].audited);
    expect(audited.length).toBeGreaterThan(0);
    expect([...(recorder?.streams ?? [])].sort()).toEqual(
      audited.filter((key) => 'stream' in tables[key]).sort(),
    );
    // Only the records whose write carried a stamp.
    expect(Object.keys(recorder?.filters ?? {}).sort()).toEqual([...(recorder?.streams ?? [])].sort());
  });

  it('stamps the writes of the audited tables only (shared/db/audit/kinds.ts reads the same flag)', async () => {
    expect([...auditedTables].sort()).toEqual(tableKeys.filter((key) => tables[key].audited).sort());
    // The audit log's own table never records itself.
    expect(tables.auditEvents.audited).toBe(false);
  });
});
