import { randomBytes } from 'node:crypto';
import { transactWriteConditions } from '#shared/db/conditional.ts';
import { table as projectsTable } from '#shared/db/projects.ts';
import { countKey, type Domain, itemOf, type StoredDomain, table } from './domains.ts';

// Claiming a name for a project (domains.ts keeps the items): one transaction checks the project,
// counts the name under the project's limit and puts the name's item on the condition that no one
// holds it, or that the claim holding it lapsed unverified, whose project then stops counting it.

export type ClaimOutcome = 'claimed' | 'no-project' | 'limit' | 'taken';

/** The checks every claim makes: the project still exists, and holds fewer than `max` names. */
function projectChecks(ownerId: string, projectId: string, max: number) {
  return [
    {
      ConditionCheck: {
        TableName: projectsTable(),
        Key: { ownerId, id: projectId },
        ConditionExpression: 'attribute_exists(id)',
      },
    },
    {
      Update: {
        TableName: table(),
        Key: countKey(projectId),
        UpdateExpression: 'SET #domains = if_not_exists(#domains, :zero) + :one',
        ConditionExpression: 'attribute_not_exists(#domains) OR #domains < :max',
        ExpressionAttributeNames: { '#domains': 'domains' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max },
      },
    },
  ];
}

/**
 * Whether a claim has lapsed at `now` (ISO): marked expired, or still pending past its expiry (the
 * background check that marks it may not have come yet). Such a claim holds its name for no one.
 */
export const hasLapsed = (domain: Pick<Domain, 'status' | 'expiresAt'>, now: string): boolean =>
  domain.status === 'expired' || (domain.status === 'pending' && domain.expiresAt <= now);

/**
 * Takes a name over from a lapsed claim (hasLapsed) of `lapsed.projectId`, in one transaction: the
 * same checks as a first claim, the item replaced on the condition that it is still that lapsed
 * claim, and the name no longer counted for the project that let it lapse. 'taken' when the claim
 * was verified, removed or taken by someone else meanwhile.
 */
export async function takeOverLapsed(
  ownerId: string,
  domain: StoredDomain,
  lapsed: Pick<Domain, 'projectId' | 'createdAt'>,
  max: number,
  now: string,
): Promise<ClaimOutcome> {
  const token = randomBytes(16).toString('hex');
  const sameProject = lapsed.projectId === domain.projectId;
  const failed = await transactWriteConditions(
    (attempt) => ({
      ClientRequestToken: `${token}-${attempt}`,
      TransactItems: [
        // Its own lapsed name again: the count holds it already (and one transaction may not
        // touch the count item twice).
        ...projectChecks(ownerId, domain.projectId, max).slice(0, sameProject ? 1 : 2),
        {
          Put: {
            TableName: table(),
            Item: itemOf(domain),
            ConditionExpression:
              'projectId = :lapsedProject AND createdAt = :lapsedAt AND (#status = :expired OR (#status = :pending AND expiresAt <= :now))',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':lapsedProject': lapsed.projectId,
              ':lapsedAt': lapsed.createdAt,
              ':expired': 'expired',
              ':pending': 'pending',
              ':now': now,
            },
          },
        },
        ...(sameProject
          ? []
          : [
              {
                Update: {
                  TableName: table(),
                  Key: countKey(lapsed.projectId),
                  UpdateExpression: 'SET #domains = #domains - :one',
                  ConditionExpression: '#domains > :zero',
                  ExpressionAttributeNames: { '#domains': 'domains' },
                  ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
                },
              },
            ]),
      ],
    }),
    // The lapsed project's count gone (its project purged meanwhile, which removes the name too):
    // taken for now, and free to claim once the purge is through.
    sameProject ? [0, 1] : [0, 1, 2, 3],
  );
  if (failed === undefined) return 'claimed';
  if (failed === 0) return 'no-project';
  return !sameProject && failed === 1 ? 'limit' : 'taken';
}

/**
 * Claims a name for one of the owner's projects, in one transaction: the project still exists (a
 * claim racing its deletion cannot outlive it), the project holds fewer than `max` names, and no one
 * holds this one. Its token makes the SDK's retry of a lost answer a no-op.
 */
export async function claimDomain(ownerId: string, domain: StoredDomain, max: number): Promise<ClaimOutcome> {
  const token = randomBytes(16).toString('hex');
  const failed = await transactWriteConditions(
    (attempt) => ({
      ClientRequestToken: `${token}-${attempt}`,
      TransactItems: [
        ...projectChecks(ownerId, domain.projectId, max),
        {
          Put: {
            TableName: table(),
            Item: itemOf(domain),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
    [0, 1, 2],
  );
  return failed === undefined ? 'claimed' : ((['no-project', 'limit', 'taken'] as const)[failed] ?? 'taken');
}
