import { requireEnv, variable } from '#shared/runtime/variables.ts';

// Every table, declared once. The CDK stack (infra/platform-stack.ts) and the local setup
// (infra/local/ensure-tables.ts) both build from this; entity modules resolve names through
// `tableName` when they use a table, not when they load: a function's bundle holds modules for
// tables its route never touches, and the stack only sets the variables of the tables it grants.
// shared/http/endpoint.ts checks a function's own tables at cold start instead.

/** A key attribute; every key in this service is a string. */
type KeyAttribute = string;

/**
 * What an index holds besides its keys and the table's: every attribute (`ALL`), none
 * (`KEYS_ONLY`), or the attributes named. An index is rewritten by a write that changes anything
 * it holds, so an index that projects what changes on every request (a key's counter) doubles the
 * cost of the request.
 */
export type Projection = 'ALL' | 'KEYS_ONLY' | readonly string[];

export interface IndexDefinition {
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  /** `ALL` when absent. */
  projection?: Projection;
}

export interface TableDefinition {
  /** Environment variable that carries the deployed table's name. */
  envVar: string;
  /** Table name in DynamoDB Local (`npm start`, tests). */
  localName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  indexes?: Record<string, IndexDefinition>;
  /** Epoch-seconds attribute after which DynamoDB may delete the item. Code still checks times itself. */
  ttlAttribute?: string;
  /** Changes leave the table through a DynamoDB stream with both images (webhook events read them). */
  stream?: 'NEW_AND_OLD_IMAGES';
  /**
   * Whether a team's audit log records changes of its items (shared/db/audit/stamp.ts): by its
   * stream when it has one (the recorder's streams are these, shared/consumers.ts), else in the
   * change's own transaction. Required, so that a new table says whether it is audited.
   */
  audited: boolean;
}

export const tables = {
  /**
   * One item per API key, keyed by the SHA-256 digest of the key: owner, role, scopes, expiry, rate
   * counter. `ownerKeys` lists a user's keys newest first (key ids are ULIDs) and finds one by id. It
   * holds keys only: admission changes the counter and `lastUsedAt` on every request, and an index
   * holding them would be rewritten each time (two write units instead of one); a listing reads the
   * page's items from the table instead (one BatchGetItem).
   */
  apiKeys: {
    envVar: 'API_KEYS_TABLE',
    audited: true,
    localName: 'platform-api-keys',
    partitionKey: 'keyHash',
    indexes: { ownerKeys: { partitionKey: 'userId', sortKey: 'keyId', projection: 'KEYS_ONLY' } },
    ttlAttribute: 'expiresAt',
    // The audit log's record of keys and tokens made and revoked (shared/db/audit/stamp.ts).
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * Responses of POSTs sent with an Idempotency-Key, one item per user and key (the id is a digest of
   * both; the body is sealed with the key, shared/http/idempotency/sealed-response.ts), kept for a day so that a
   * retry gets the first answer instead of a second resource.
   */
  idempotency: {
    envVar: 'IDEMPOTENCY_TABLE',
    audited: false,
    localName: 'platform-idempotency',
    partitionKey: 'id',
    ttlAttribute: 'expiresAt',
  },
  /** Counters for callers without a valid key (per source address, per email): one item per window. */
  rateLimits: {
    envVar: 'RATE_LIMITS_TABLE',
    audited: false,
    localName: 'platform-rate-limits',
    partitionKey: 'bucket',
    ttlAttribute: 'expiresAt',
  },
  /** Users (`USER#<id>`) and one marker per email (`EMAIL#<email>`) that keeps emails unique. */
  users: {
    envVar: 'USERS_TABLE',
    audited: false,
    localName: 'platform-users',
    partitionKey: 'pk',
    indexes: { byCreation: { partitionKey: 'listing', sortKey: 'id' } },
  },
  /** Projects by owner, ids sorting by creation time. */
  projects: {
    envVar: 'PROJECTS_TABLE',
    audited: true,
    localName: 'platform-projects',
    partitionKey: 'ownerId',
    sortKey: 'id',
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * Deployments by owner (get with owner check; the owner's list, newest first) and by project
   * (`byProject`, ids sorting by creation time): the two lists every filter narrows. One index entry
   * per deployment, keyed on what never changes, so a status change rewrites that one entry in place
   * (one unit) and never moves it. Filters (status, branch, and later target) are a FilterExpression
   * on the list's one Query over a bounded window (shared/db/deployments/lists.ts); the indexes keyed
   * on each filter that this replaces cost a deployment's life 35 units (docs/upgrading-indexes.md).
   */
  deployments: {
    envVar: 'DEPLOYMENTS_TABLE',
    audited: true,
    localName: 'platform-deployments',
    partitionKey: 'ownerId',
    sortKey: 'id',
    indexes: { byProject: { partitionKey: 'projectId', sortKey: 'id' } },
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * Webhook subscriptions under their owner (partition `ownerId`, sort `id`), as few as ten a user:
   * the fan-out reads an owner's whole partition per event. The signing secret is stored as it is
   * (a signer needs it), and no reader but the delivery puts it in anything it returns. One item per
   * owner, `id` = `count`, keeps the number of subscriptions, so the limit holds under concurrency.
   */
  webhooks: {
    envVar: 'WEBHOOKS_TABLE',
    audited: true,
    localName: 'platform-webhooks',
    partitionKey: 'ownerId',
    sortKey: 'id',
    // The audit log's record of subscriptions made and changed.
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * Teams and who is in them, one partition per team (`pk` = the team id), sorted by `sk`:
   * - `team`: its name, when made, and how many owners it has (the last one cannot go);
   * - `member#<userId>`: a member, their role and when they joined, with their email and name as
   *   they were then; `memberId` (the user id) puts them in the sparse `byMember` index, which lists a
   *   user's teams;
   * - `invitation#<id>`: an invitation waiting to be accepted (never its code).
   * Outside any team's partition, `code#<digest>` finds an invitation by the digest of its code, and
   * `inbox#<email>` holds the invitations to that email by id (shared/db/teams/inbox.ts).
   * A personal team has no items here: it is the user's own, derived from the user.
   */
  teams: {
    envVar: 'TEAMS_TABLE',
    audited: true,
    localName: 'platform-teams',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: { byMember: { partitionKey: 'memberId', sortKey: 'teamId', projection: ['role', 'joinedAt'] } },
    ttlAttribute: 'expiresAt',
    // The audit log's record of teams, members and invitations changed.
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * Projects' environment variables, one partition per project (`projectId`), sorted by `sk`:
   * - `set`: the head. The current version of the set, its size, a revision every change bumps
   *   (the condition that makes changes serial and replaces atomic), the owner, and the last change
   *   (keys and targets, never values), which leaves through the stream as `project.env.updated`;
   * - `var#<version>#<envId>`: a variable of that version of the set, its value sealed;
   * - `snapshot#<deploymentId>#<part>`: what a deployment builds with, copied sealed at its creation;
   * - `production#<moveId>`: a move of the project's production pointer (its history, newest first);
   * - `promoted#<deploymentId>`: where a default rollback goes from a deployment that was production
   *   (shared/db/production.ts).
   * Everything a project keeps besides itself and its deployments goes with it: one partition to purge.
   */
  environment: {
    envVar: 'ENVIRONMENT_TABLE',
    audited: true,
    localName: 'platform-environment',
    partitionKey: 'projectId',
    sortKey: 'sk',
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * One item per delivery attempt, under its subscription, newest first (ids are ULIDs): the
   * delivery log. Kept 30 days.
   */
  webhookDeliveries: {
    envVar: 'WEBHOOK_DELIVERIES_TABLE',
    audited: false,
    localName: 'platform-webhook-deliveries',
    partitionKey: 'webhookId',
    sortKey: 'id',
    ttlAttribute: 'expiresAt',
  },
  /**
   * Deployments' build logs, one partition per deployment (`deploymentId`), sorted by `sk`:
   * - `head`: how many lines and bytes the log holds; every append is one transaction that moves it
   *   from the count it read to the count plus its lines, so sequence numbers are gap-free and
   *   committed in order (shared/db/deployments/logs.ts);
   * - `line#<lastSeq, 9 digits>`: the lines of one append (up to 500, at most the 64 KiB body), keyed
   *   by its last sequence number, so `sk > line#<since>` finds exactly the appends holding lines
   *   after `since`.
   * A table of its own rather than items beside the deployment: the deployments table's stream feeds
   * the webhook fan-out (every append would invoke it), its owner partition lists deployments, and it
   * has no TTL. Kept 30 days; a deleted project's go with it (or expire).
   */
  deploymentLogs: {
    envVar: 'DEPLOYMENT_LOGS_TABLE',
    audited: true,
    localName: 'platform-deployment-logs',
    partitionKey: 'deploymentId',
    sortKey: 'sk',
    ttlAttribute: 'expiresAt',
  },
  /**
   * Custom domains, one item per name (`pk` = the name, shared/model/custom-domains/names.ts): a claim is one
   * conditional put, so a name is held by one project across all owners, whoever tries at once.
   * Beside them, one item per project (`pk` = `project#<projectId>`) counts its names, so the limit
   * holds under concurrency. `byProject` lists a project's names, newest first (`listOrder` =
   * creation time and name). `dueChecks` holds pending domains only (`checkQueue` is removed when one
   * is verified or expires), by when each is checked next: the scheduled re-check reads its front.
   * Its stream carries `domain.verified` and `domain.expired` to the webhook fan-out.
   */
  domains: {
    envVar: 'DOMAINS_TABLE',
    audited: true,
    localName: 'platform-domains',
    partitionKey: 'pk',
    indexes: {
      byProject: { partitionKey: 'projectId', sortKey: 'listOrder' },
      dueChecks: { partitionKey: 'checkQueue', sortKey: 'nextCheckAt' },
    },
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /**
   * Each team's audit log, one partition per team (`teamId`), events sorted by `id` (ULIDs, so a
   * time range is a key range and newest first is the key order): who changed what, from where,
   * and every refusal (shared/db/audit/events.ts). Kept AUDIT_RETENTION_DAYS (90), then removed by
   * TTL; recovery on, since nothing could rebuild it.
   */
  auditEvents: {
    envVar: 'AUDIT_EVENTS_TABLE',
    audited: false,
    localName: 'platform-audit-events',
    partitionKey: 'teamId',
    sortKey: 'id',
    ttlAttribute: 'expiresAt',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof tables;

/**
 * The sort key of a project's head item in the environment table (its variables' current set). Here
 * rather than in its entity module, which holds a client: the consumers' declarations filter the
 * stream by it (shared/consumers.ts) without loading a store.
 */
export const ENVIRONMENT_HEAD_KEY = 'set';

export const tableKeys = Object.keys(tables) as TableKey[];

type IndexesOf<T> = T extends { indexes: infer I } ? I : Record<never, never>;

/** Each table's declared indexes, each with its name: what a Query names and keys on. */
export type DeclaredIndexes = {
  [K in TableKey]: {
    [N in keyof IndexesOf<(typeof tables)[K]> & string]: IndexesOf<(typeof tables)[K]>[N] & { name: N };
  };
};

/**
 * The indexes as queries use them: `indexes.apiKeys.ownerKeys.name` is `'ownerKeys'`, `.partitionKey`
 * `'userId'`. Queries take index names and key attributes from here, never as strings of their own,
 * so renaming an index is an edit of the declaration above, and tsc names any query left behind.
 */
export const indexes = Object.fromEntries(
  tableKeys.map((key) => {
    const declared: TableDefinition['indexes'] = (tables[key] as TableDefinition).indexes ?? {};
    return [
      key,
      Object.fromEntries(Object.entries(declared).map(([name, index]) => [name, { ...index, name }])),
    ];
  }),
) as DeclaredIndexes;

/** The deployed (or local) name of a table; throws when this function was not given it. */
export const tableName = (key: TableKey): string => requireEnv(tables[key].envVar);

/** The name a table has here: its variable's value, else (a local run without it) its local name. */
export const tableNameHere = (key: TableKey): string => variable(tables[key].envVar) ?? tables[key].localName;

/** Which of `keys` (every table by default) a table name stands for, deployed or local. */
export const tableKeyNamed = (name: unknown, keys: readonly TableKey[] = tableKeys): TableKey | undefined =>
  keys.find((key) => tableNameHere(key) === name);
