import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { keyPairOfSeed } from '../../shared/domain/key-identity.ts';
import { secretVersions } from '../../shared/runtime/secrets.ts';

// A custom resource's handler (CDK's provider framework answers CloudFormation): the public half of
// the key-signing seed, for the functions that verify keys. They get the public key as a plain
// variable; only the key-issuing functions and this one may read the seed.

interface ProviderResponse {
  PhysicalResourceId: string;
  Data?: { PublicKey: string };
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<ProviderResponse> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const { current } = await secretVersions('keySigningSeed');
  return {
    PhysicalResourceId: 'key-signing-public-key',
    Data: { PublicKey: keyPairOfSeed(current).publicKey },
  };
}
