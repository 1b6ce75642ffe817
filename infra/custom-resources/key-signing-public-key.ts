import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { publishedKeysOf } from '#shared/domain/key-identity.ts';
import { forgetSecrets, secretVersions } from '#shared/runtime/secrets.ts';

// A custom resource's handler (CDK's provider framework answers CloudFormation): the public keys of
// the key-signing seed's current and previous values, for the functions that verify keys and for
// the two that issue them (which sign only with a seed whose key is published). They get the keys
// as a plain variable; only the key-issuing functions and this one may read the seed. Its one
// property besides the service token, `SeedVersion`, is the rotation input (`-c
// keySigningSeedVersion=...`): a new value makes CloudFormation run this again after a rotation.

interface ProviderResponse {
  PhysicalResourceId: string;
  Data?: { PublicKeys: string };
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<ProviderResponse> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  // A warm container may hold the values it read at the last deploy, before the rotation.
  forgetSecrets();
  const { current, previous } = await secretVersions('keySigningSeed');
  return {
    PhysicalResourceId: 'key-signing-public-key',
    Data: { PublicKeys: publishedKeysOf(previous === undefined ? [current] : [current, previous]) },
  };
}
