import { randomBytes } from 'node:crypto';
import { tables } from '#shared/db/tables.ts';
import { PUBLIC_KEYS_VARIABLE, publishedKeysOf } from '#shared/domain/key-identity.ts';
import { LOCAL_KEY_VARIABLE } from '#shared/runtime/envelope.ts';
import { secrets } from '#shared/runtime/secrets.ts';

/**
 * The environment the stack gives each function, for a local run: every table under its local
 * name, the DynamoDB endpoint, and the secrets by value (in AWS, functions get their ARNs): the
 * cursor key random per run unless one is set, and the key-signing seed as given (`npm start`
 * keeps one beside its data, so keys survive a restart) or random; the key that seals environment
 * variables likewise (in AWS, the stack's KMS key).
 */
export function localEnvironment(
  endpoint: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const tableNames = Object.fromEntries(
    Object.values(tables).map((table) => [table.envVar, table.localName]),
  );
  const seed = env[secrets.keySigningSeed] ?? randomBytes(32).toString('hex');
  const previous = env[`${secrets.keySigningSeed}_PREVIOUS`];
  return {
    ...tableNames,
    DYNAMODB_ENDPOINT: endpoint,
    [secrets.cursorKey]: env[secrets.cursorKey] ?? randomBytes(32).toString('hex'),
    [secrets.keySigningSeed]: seed,
    // What the stack's custom resource publishes: the seed's public key, and the previous seed's
    // when one is given (KEY_SIGNING_SEED_PREVIOUS, to try a rotation by hand).
    [PUBLIC_KEYS_VARIABLE]: publishedKeysOf(previous ? [seed, previous] : [seed]),
    [LOCAL_KEY_VARIABLE]: env[LOCAL_KEY_VARIABLE] ?? randomBytes(32).toString('hex'),
  };
}
