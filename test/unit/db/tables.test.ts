import { indexes, type TableDefinition, tableKeys, tables } from '../../../shared/db/tables.ts';

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
