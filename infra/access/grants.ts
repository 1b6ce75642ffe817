import { queueConsumers, scheduledConsumers, streamConsumers } from '#shared/consumers.ts';
import { type TableKey, tableKeys } from '#shared/db/tables.ts';
import {
  actsInTeam,
  type FunctionAccess,
  type KmsUse,
  type QueueKey,
  type Route,
  rowsOf,
  type TableAction,
} from '#shared/routes.ts';
import type { SecretName } from '#shared/runtime/secrets.ts';

// What each function may call, in IAM's terms but before any ARN is known: the one source of its
// permissions. The stack turns these into each role's policy statements (infra/access/bind-grants.ts);
// local runs refuse every call they do not allow, with IAM's error (infra/local/iam/). A grant
// written here is both what AWS will allow and what `npm test` allows, so the two cannot drift.

/** Item actions on a table, or (with `index`) queries of one of its indexes. */
export interface TableGrant {
  service: 'dynamodb';
  actions: readonly string[];
  table: TableKey;
  index?: string;
}

/** A use of the key that seals environment variables; `plainOnly` is IAM's encryption-context condition. */
export interface KmsGrant {
  service: 'kms';
  actions: readonly string[];
  /** Allowed only when the request's encryption context says `type: plain` (which KMS checks). */
  plainOnly: boolean;
}

export interface SecretGrant {
  service: 'secretsmanager';
  actions: readonly string[];
  secret: SecretName;
}

export interface QueueGrant {
  service: 'sqs';
  actions: readonly string[];
  queue: QueueKey;
}

export type Grant = TableGrant | KmsGrant | SecretGrant | QueueGrant;

/** The condition key and value of a `plainOnly` KMS grant, as the IAM statement writes it. */
export const PLAIN_ONLY_CONDITION = { key: 'kms:EncryptionContext:type', value: 'plain' } as const;

/** A row's actions on one table: the table's own, and each index's queries on that index alone. */
function tableGrants(key: TableKey, actions: readonly TableAction[]): TableGrant[] {
  const onTable = actions.filter((action) => !action.startsWith('Query:'));
  const grants: TableGrant[] =
    onTable.length > 0
      ? [{ service: 'dynamodb', actions: onTable.map((action) => `dynamodb:${action}`), table: key }]
      : [];
  for (const action of actions) {
    const index = /^Query:(.+)$/.exec(action)?.[1];
    if (index !== undefined)
      grants.push({ service: 'dynamodb', actions: ['dynamodb:Query'], table: key, index });
  }
  return grants;
}

const kmsGrant = (use: KmsUse): KmsGrant =>
  use === 'encrypt'
    ? { service: 'kms', actions: ['kms:GenerateDataKey'], plainOnly: false }
    : { service: 'kms', actions: ['kms:Decrypt'], plainOnly: use === 'decryptPlain' };

/** The grants of one declaration (a route row or a consumer). */
export function grantsOf(access: FunctionAccess): Grant[] {
  return [
    ...tableKeys.flatMap((key) => {
      const actions: readonly TableAction[] | undefined = access.tables[key];
      return actions ? tableGrants(key, actions) : [];
    }),
    ...(access.kms ?? []).map(kmsGrant),
    ...(access.secrets ?? []).map(
      (secret): SecretGrant => ({
        service: 'secretsmanager',
        actions: ['secretsmanager:GetSecretValue'],
        secret,
      }),
    ),
    ...(access.queues ?? []).map(
      // SendMessageBatch is authorised as SendMessage.
      (queue): QueueGrant => ({ service: 'sqs', actions: ['sqs:SendMessage'], queue }),
    ),
  ];
}

const consumers: readonly (FunctionAccess & { handler: string })[] = [
  ...streamConsumers,
  ...queueConsumers,
  ...scheduledConsumers,
];

/**
 * A row that acts in a team records in its audit log what it changes and what it refuses
 * (shared/http/audit-trail.ts): a refusal, a delete's event in its transaction, a change that writes
 * nothing else. Granted here for every such row, as the chain that writes it serves every row.
 */
export const AUDIT_RECORDING: TableGrant = {
  service: 'dynamodb',
  actions: ['dynamodb:PutItem'],
  table: 'auditEvents',
};

/** A route row's grants: what it names, and the recording of a refusal where it acts in a team. */
export const routeGrants = (route: Route): Grant[] => [
  ...grantsOf(route),
  ...(actsInTeam(route) ? [AUDIT_RECORDING] : []),
];

/** Everything one function may call: its rows' grants together (a route's), or its consumer row's. */
export function functionGrants(handler: string): Grant[] {
  const rows = rowsOf(handler);
  const declarations: FunctionAccess[] = [
    ...rows,
    ...consumers.filter((consumer) => consumer.handler === handler),
  ];
  if (declarations.length === 0) throw new Error(`No route or consumer runs functions/${handler}.ts`);
  return [...rows.flatMap(routeGrants), ...declarations.slice(rows.length).flatMap(grantsOf)];
}
