import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type CfnKey, type IKey, Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { KmsUse } from '../shared/routes.ts';
import { KMS_KEY_VARIABLE } from '../shared/runtime/envelope.ts';
import { pinnedLogicalIds } from './pinned-logical-ids.ts';

// The KMS key that seals environment variables (shared/runtime/envelope.ts): one per stack, kept like
// the tables of users' data (a key scheduled for deletion would make every stored value unreadable),
// rotated yearly by KMS. Functions get exactly the uses their rows name (shared/routes.ts, `kms`).

export function environmentKey(scope: Construct): Key {
  const key = new Key(scope, 'EnvironmentKey', {
    description: "Seals projects' environment variables (envelope encryption; data keys per value)",
    enableKeyRotation: true,
    // Kept when the stack goes, and when it is replaced: stored values are unreadable without it.
    removalPolicy: RemovalPolicy.RETAIN,
    pendingWindow: Duration.days(30),
  });
  // Pinned like the tables: a new logical id would be a new key, and the old values unreadable.
  (key.node.defaultChild as CfnKey).overrideLogicalId(pinnedLogicalIds.keys.EnvironmentKey);
  return key;
}

/** The IAM statement of each use: `decryptPlain` only where the encryption context says `type: plain`. */
export function kmsStatement(use: KmsUse, key: IKey): PolicyStatement {
  if (use === 'encrypt')
    return new PolicyStatement({ actions: ['kms:GenerateDataKey'], resources: [key.keyArn] });
  if (use === 'decrypt') return new PolicyStatement({ actions: ['kms:Decrypt'], resources: [key.keyArn] });
  return new PolicyStatement({
    actions: ['kms:Decrypt'],
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:EncryptionContext:type': 'plain' } },
  });
}

/** Gives a function the key's ARN and exactly the uses named. */
export function bindEnvironmentKey(fn: LambdaFunction, key: IKey, uses: readonly KmsUse[]): void {
  fn.addEnvironment(KMS_KEY_VARIABLE, key.keyArn);
  for (const use of uses) fn.addToRolePolicy(kmsStatement(use, key));
}
