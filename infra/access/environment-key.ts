import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { type CfnKey, Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { pinnedLogicalIds } from '../data/pinned-logical-ids.ts';

// The KMS key that seals environment variables (shared/runtime/envelope.ts): one per stack, kept like
// the tables of users' data (a key scheduled for deletion would make every stored value unreadable),
// rotated yearly by KMS. Functions get exactly the uses their rows name (shared/routes.ts, `kms`;
// infra/access/grants.ts).

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
