import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { db } from '#shared/db/client.ts';
import { conditionally, transactWrite } from '#shared/db/conditional.ts';
import { forEachPage, type Page, queryPage } from '#shared/db/pages.ts';
import { indexes, tableName } from '#shared/db/tables.ts';
import { updateExpression } from '#shared/db/update-expression.ts';
import { DOMAIN_STATES, type DomainState, RECORD_STATES } from '#shared/model/custom-domains/domains.ts';
import { clock } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import type {
  DomainRecord as DomainRecordSchema,
  Domain as DomainSchema,
} from '#shared/schemas/domain-resources.ts';

// Custom domains, one item per name (a claim of one, in one transaction: claims.ts) (`pk` = the name): the key is the name, so a second claim of it,
// from any project of anyone, fails one condition. One item per project (`pk` = COUNT_PREFIX + its
// id) counts its names: a claim increments it under the limit in the same transaction as its put, a
// removal decrements it with its delete. A pending domain carries `checkQueue`, which puts it in the
// `dueChecks` index by `nextCheckAt`; verifying or expiring it removes the attribute, and the entry.

export const table = (): string => tableName('domains');

const COUNT_PREFIX = 'project#';
/** The one value of `checkQueue`: every pending domain is in the one queue. */
const PENDING_QUEUE = 'pending';

export type Domain = z.output<typeof DomainSchema>;
export type DomainRecord = z.output<typeof DomainRecordSchema>;

/** A domain with what the API does not show: its owner's partition (webhooks) and its check count. */
export interface StoredDomain extends Domain {
  ownerId: string;
  /** Background checks made so far: the backoff's exponent. */
  checks: number;
}

export const countKey = (projectId: string) => ({ pk: `${COUNT_PREFIX}${projectId}` });

const optionalString = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const stateOf = (value: unknown): DomainState => DOMAIN_STATES.find((state) => state === value) ?? 'pending';

const toRecord = (value: unknown): DomainRecord => {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    purpose: record.purpose === 'routing' ? 'routing' : 'ownership',
    type: record.type === 'CNAME' || record.type === 'ALIAS' ? record.type : 'TXT',
    name: String(record.name),
    requiredValue: String(record.requiredValue),
    observedValues: Array.isArray(record.observedValues) ? record.observedValues.map(String) : [],
    status: RECORD_STATES.find((state) => state === record.status) ?? 'missing',
    error: optionalString(record.error),
  };
};

/** A domain item as the API shows it. */
export const toDomain = (item: Record<string, unknown>): Domain => ({
  name: String(item.pk),
  projectId: String(item.projectId),
  status: stateOf(item.status),
  records: Array.isArray(item.records) ? item.records.map(toRecord) : [],
  createdAt: String(item.createdAt),
  verifiedAt: optionalString(item.verifiedAt),
  lastCheckedAt: optionalString(item.lastCheckedAt),
  nextCheckAt: optionalString(item.nextCheckAt),
  expiresAt: String(item.expiresAt),
});

const toStoredDomain = (item: Record<string, unknown>): StoredDomain => ({
  ...toDomain(item),
  ownerId: String(item.ownerId),
  checks: typeof item.checks === 'number' ? item.checks : 0,
});

/** Whether a stream image is a domain's (not a project's count of them): the webhook fan-out asks. */
export const isDomainItem = (image: Record<string, unknown>): boolean =>
  typeof image.pk === 'string' && !image.pk.startsWith(COUNT_PREFIX) && typeof image.projectId === 'string';

/** The attributes a domain item carries besides its shown fields, from its state. */
export function itemOf(domain: StoredDomain): Record<string, unknown> {
  const { name, verifiedAt, lastCheckedAt, nextCheckAt, ...rest } = domain;
  return {
    pk: name,
    ...rest,
    listOrder: `${domain.createdAt}#${name}`,
    ...(verifiedAt === null ? {} : { verifiedAt }),
    ...(lastCheckedAt === null ? {} : { lastCheckedAt }),
    ...(nextCheckAt === null ? {} : { nextCheckAt }),
    ...(domain.status === 'pending' ? { checkQueue: PENDING_QUEUE } : {}),
  };
}

/** The domain of that name, whoever holds it (callers check the project), or undefined. */
export async function findDomain(name: string): Promise<StoredDomain | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: table(), Key: { pk: name } }));
  return Item && isDomainItem(Item) ? toStoredDomain(Item) : undefined;
}

/** A page of a project's domains, newest first. */
export async function listDomains(projectId: string, page: PageRequest): Promise<Page<Domain>> {
  const index = indexes.domains.byProject;
  const result = await queryPage(
    {
      scope: `domains:${projectId}`,
      query: {
        TableName: table(),
        IndexName: index.name,
        KeyConditionExpression: '#project = :projectId',
        ExpressionAttributeNames: { '#project': index.partitionKey },
        ExpressionAttributeValues: { ':projectId': projectId },
      },
      resume: { below: index.sortKey },
    },
    page,
  );
  return { items: result.items.map(toDomain), nextCursor: result.nextCursor };
}

/**
 * Removes a project's domain and gives its place back under the limit, together; false when the
 * project holds no such name (or a retry of a removal whose answer was lost finds it gone).
 */
export async function deleteDomain(projectId: string, name: string): Promise<boolean> {
  return transactWrite(() => ({
    TransactItems: [
      {
        Delete: {
          TableName: table(),
          Key: { pk: name },
          ConditionExpression: 'projectId = :projectId',
          ExpressionAttributeValues: { ':projectId': projectId },
        },
      },
      {
        Update: {
          TableName: table(),
          Key: countKey(projectId),
          UpdateExpression: 'SET #domains = #domains - :one',
          ConditionExpression: '#domains > :zero',
          ExpressionAttributeNames: { '#domains': 'domains' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
    ],
  }));
}

/**
 * Writes what a check found (or that the domain expired) over the state it was decided on: only if
 * the domain is still as `seen` (its status and when it was due), so a check that raced another, or a
 * removal, changes nothing. The domain as it now is, or undefined when the condition failed.
 */
export async function saveCheck(seen: StoredDomain, next: StoredDomain): Promise<Domain | undefined> {
  const item = itemOf(next);
  const { pk: _key, ...set } = item;
  const remove = ['verifiedAt', 'lastCheckedAt', 'nextCheckAt', 'checkQueue'].filter(
    (attribute) => !(attribute in item),
  );
  const parts = updateExpression({
    set,
    remove,
    names: { '#status': 'status', '#due': 'nextCheckAt', '#project': 'projectId' },
    values: {
      ':status': seen.status,
      ':project': seen.projectId,
      ...(seen.nextCheckAt ? { ':due': seen.nextCheckAt } : {}),
    },
  });
  const saved = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: seen.name },
        ...parts,
        ConditionExpression: `#status = :status AND #project = :project AND ${
          seen.nextCheckAt ? '#due = :due' : 'attribute_not_exists(#due)'
        }`,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return saved.failed ? undefined : toDomain(saved.result.Attributes ?? {});
}

/**
 * Pending domains whose check is due at `now` (epoch ms), the longest overdue first, at most `limit`.
 * The index is eventually consistent: a check's write is conditional on what it read (saveCheck).
 */
export async function dueDomains(now: number, limit: number): Promise<StoredDomain[]> {
  const index = indexes.domains.dueChecks;
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: table(),
      IndexName: index.name,
      KeyConditionExpression: '#queue = :queue AND #due <= :now',
      ExpressionAttributeNames: { '#queue': index.partitionKey, '#due': index.sortKey },
      ExpressionAttributeValues: { ':queue': PENDING_QUEUE, ':now': new Date(now).toISOString() },
      Limit: limit,
    }),
  );
  return Items.filter(isDomainItem).map(toStoredDomain);
}

/** Names deleted per round of a purge. */
const PURGE_PAGE = 25;

/**
 * Deletes every name a removed project held, and its count, until `until` (epoch ms): whether it
 * finished. Idempotent: a second run deletes what is left.
 */
export async function purgeProjectDomains(projectId: string, until: number): Promise<boolean> {
  const index = indexes.domains.byProject;
  const throughAll = await forEachPage(
    {
      TableName: table(),
      IndexName: index.name,
      KeyConditionExpression: '#project = :projectId',
      ExpressionAttributeNames: { '#project': index.partitionKey },
      ExpressionAttributeValues: { ':projectId': projectId },
      ProjectionExpression: 'pk',
      Limit: PURGE_PAGE,
    },
    async ({ items }) => {
      await Promise.all(
        // On the condition that the name is still this project's: one freed meanwhile may be another's.
        items.map((item) =>
          conditionally(() =>
            db.send(
              new DeleteCommand({
                TableName: table(),
                Key: { pk: item.pk },
                ConditionExpression: 'projectId = :projectId',
                ExpressionAttributeValues: { ':projectId': projectId },
              }),
            ),
          ),
        ),
      );
      return clock.now() < until;
    },
  );
  if (!throughAll) return false;
  await db.send(new DeleteCommand({ TableName: table(), Key: countKey(projectId) }));
  return true;
}
