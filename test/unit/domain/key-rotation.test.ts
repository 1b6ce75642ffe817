import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { handler as publishKeys } from '#infra/custom-resources/key-signing-public-key.ts';
import {
  identityIsGenuine,
  type KeyIdentity,
  keyPairOfSeed,
  PUBLIC_KEYS_VARIABLE,
  signIdentity,
} from '#shared/domain/key-identity.ts';
import { arnVariableOf, forgetSecrets, secrets } from '#shared/runtime/secrets.ts';
import { type StandInSecrets, startSecretsExtension } from '../../support/secrets-extension.ts';

// The rotation procedure of docs/deploying.md (Rotating the key-signing seed), walked through as it runs in
// AWS: the seed by ARN from the extension (the stand-in on loopback), `put-secret-value` as the
// stand-in's put, and the deploy as the custom resource's handler whose answer becomes the functions'
// variable. Every issuer here has just started (no cached seed): the earliest it could switch.

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:KeySigningSeed';
const saved = { ...process.env };
let extension: StandInSecrets;

beforeAll(async () => {
  extension = await startSecretsExtension();
  delete process.env[secrets.keySigningSeed];
  delete process.env[`${secrets.keySigningSeed}_PREVIOUS`];
  process.env[arnVariableOf('keySigningSeed')] = ARN;
  process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String(extension.port);
  process.env.AWS_SESSION_TOKEN = extension.sessionToken;
});
afterAll(async () => {
  process.env = saved;
  forgetSecrets();
  await extension.close();
});

let counter = 0;
const identity = (): KeyIdentity => {
  counter += 1;
  return {
    keyHash: `hash-${counter}`,
    keyId: `key_${counter}`,
    userId: 'usr_1',
    role: 'member',
    scopes: ['read', 'write'],
    expiresAt: 2_000_000_000,
  };
};

/** `aws secretsmanager put-secret-value`: the new value becomes AWSCURRENT, the old one AWSPREVIOUS. */
const putSecretValue = (seed: string) => extension.put(ARN, seed);

/** `npm run deploy -- -c keySigningSeedVersion=...`: the custom resource runs, its answer is the variable. */
async function deploy(requestType: 'Create' | 'Update'): Promise<string> {
  const event = {
    RequestType: requestType,
    ResourceProperties: { ServiceToken: 'token', SeedVersion: 'v' },
    PhysicalResourceId: 'key-signing-public-key',
  } as unknown as CloudFormationCustomResourceEvent;
  const answer = await publishKeys(event);
  const published = answer.Data?.PublicKeys ?? '';
  process.env[PUBLIC_KEYS_VARIABLE] = published;
  return published;
}

/** A key issued by a container that fetches the seed now. */
async function issue(): Promise<{ identity: KeyIdentity; signature: string }> {
  forgetSecrets();
  const issued = identity();
  return { identity: issued, signature: await signIdentity(issued) };
}

/** Whether a verifier holding `published` admits the key. */
function verifies(key: { identity: KeyIdentity; signature: string }, published: string): boolean {
  const before = process.env[PUBLIC_KEYS_VARIABLE];
  process.env[PUBLIC_KEYS_VARIABLE] = published;
  try {
    return identityIsGenuine(key.identity, key.signature);
  } finally {
    process.env[PUBLIC_KEYS_VARIABLE] = before;
  }
}

const keyIdOfSeed = (seed: string): string => keyPairOfSeed(seed).keyId;

describe('rotating the key-signing seed', () => {
  it('keeps keys issued before, during and after a rotation valid, and drops those two rotations old', async () => {
    putSecretValue('seed-1');
    const first = await deploy('Create');
    expect(first.split(',')).toHaveLength(1);
    const before = await issue();
    expect(before.signature.split('.')[0]).toBe(keyIdOfSeed('seed-1'));
    expect(verifies(before, first)).toBe(true);

    // Rotated, not yet deployed: issuers keep signing with the published (previous) seed.
    putSecretValue('seed-2');
    const during = await issue();
    expect(during.signature.split('.')[0]).toBe(keyIdOfSeed('seed-1'));
    expect(verifies(during, first)).toBe(true);

    // Deployed: both public keys published, the new one first; issuers switch to the new seed.
    const second = await deploy('Update');
    expect(second.split(',')).toEqual([keyPairOfSeed('seed-2').publicKey, keyPairOfSeed('seed-1').publicKey]);
    const after = await issue();
    expect(after.signature.split('.')[0]).toBe(keyIdOfSeed('seed-2'));
    for (const key of [before, during, after]) expect(verifies(key, second)).toBe(true);

    // The next rotation publishes seed-3's and seed-2's keys: seed-1's keys are refused from then on.
    putSecretValue('seed-3');
    const third = await deploy('Update');
    const later = await issue();
    expect(later.signature.split('.')[0]).toBe(keyIdOfSeed('seed-3'));
    expect([before, during, after, later].map((key) => verifies(key, third))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it('refuses to sign when the seed was rotated twice without a deploy, rather than issue keys nobody accepts', async () => {
    putSecretValue('seed-a');
    await deploy('Update');
    putSecretValue('seed-b');
    putSecretValue('seed-c');
    await expect(issue()).rejects.toThrow(/rotated twice without a deploy/);
  });

  it('refuses a signature that names one key but was made with another, and a tampered identity', async () => {
    putSecretValue('seed-x');
    putSecretValue('seed-y');
    const published = await deploy('Update');
    const key = await issue();
    const [, bytes] = key.signature.split('.');
    expect(verifies({ ...key, signature: `${keyIdOfSeed('seed-x')}.${bytes}` }, published)).toBe(false);
    expect(verifies({ ...key, identity: { ...key.identity, role: 'admin' } }, published)).toBe(false);
    expect(verifies({ ...key, signature: `unknown.${bytes}` }, published)).toBe(false);
  });

  it('still accepts a signature from before signatures named their key', async () => {
    putSecretValue('seed-old');
    const published = await deploy('Update');
    const key = await issue();
    const [, bytes = ''] = key.signature.split('.');
    expect(verifies({ ...key, signature: bytes }, published)).toBe(true);
  });
});
