import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '#shared/model/ids.ts';
import { movesForward, type ProductionReason } from '#shared/model/production.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { db } from './client.ts';
import { conditionally, transactWrite } from './conditional.ts';
import { type Page, queryPage } from './pages.ts';
import { findProjectItem, type Project, table as projectsTable, toProject } from './projects.ts';
import { tableName } from './tables.ts';

// A project's production pointer and its history. The pointer is an attribute of the project item
// (`production`, with `autoPromotion` beside it), so reading a project shows it at no extra cost and
// its change leaves through the projects stream (`project.production_changed`). Every move is one
// transaction: the pointer, conditioned on the deployment it replaces, and an entry of the history,
// so no move is lost, doubled, or recorded without happening. The history lives in the project's
// partition of the environment table, which is purged with the project:
// - `production#<moveId>`: a move, newest first by its ULID;
// - `promoted#<deploymentId>`: where a default rollback goes from that deployment (the production it
//   replaced when it last moved forward); its presence says the deployment was production once.

const environmentTable = (): string => tableName('environment');

const MOVE_PREFIX = 'production#';
const moveKey = (moveId: string): string => `${MOVE_PREFIX}${moveId}`;
const markerKey = (deploymentId: string): string => `promoted#${deploymentId}`;

/** The pointer as stored: what the API shows, and where a default rollback would go from it. */
export interface StoredPointer {
  deploymentId: string;
  url: string | null;
  promotedAt: string;
  reason: ProductionReason;
  /** The production deployment before this one on the way forward; null when there was none. */
  rollbackTo: string | null;
}

export interface ProductionState {
  project: Project;
  pointer: StoredPointer | undefined;
}

/**
 * One of the owner's projects with its pointer as stored; undefined when they have no such project.
 * Read consistently: a move is decided on this pointer (already production? roll back to where?),
 * and a move whose answer was lost recognizes its own write in it; a read that lagged the last move
 * would answer "already production" for a pointer that was moved away, or miss its own write.
 */
export async function readProductionState(
  ownerId: string,
  projectId: string,
): Promise<ProductionState | undefined> {
  const item = await findProjectItem(ownerId, projectId, { consistent: true });
  if (!item) return undefined;
  const stored = item.production as Record<string, unknown> | undefined;
  const project = toProject(item);
  const pointer =
    stored && project.production
      ? {
          ...project.production,
          rollbackTo: typeof stored.rollbackTo === 'string' ? stored.rollbackTo : null,
        }
      : undefined;
  return { project, pointer };
}

/**
 * Where a default rollback goes from a deployment that was production; undefined if it never was.
 * Read consistently: a rollback right after the promotion that wrote the marker must find it.
 */
export async function findPromotion(
  projectId: string,
  deploymentId: string,
): Promise<{ rollbackTo: string | null } | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: environmentTable(),
      Key: { projectId, sk: markerKey(deploymentId) },
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  return { rollbackTo: typeof Item.rollbackTo === 'string' ? Item.rollbackTo : null };
}

export interface Move {
  ownerId: string;
  projectId: string;
  /** The deployment in production when the move was decided: the write's condition. */
  from: string | null;
  to: StoredPointer;
  /** Who moved it; null for an automatic move. */
  keyId: string | null;
}

/**
 * Moves the pointer if it still points at `move.from` (and, for an automatic move, automatic
 * promotion is still on), recording the move in the same transaction; false when the project or its
 * pointer changed meanwhile (the caller reads again and decides again), or it is gone. A rollback
 * pauses automatic promotion, any other move turns it on (shared/model/production.ts).
 */
export async function moveProduction(move: Move): Promise<boolean> {
  const { ownerId, projectId, from, to, keyId } = move;
  // Each call its own id: a transaction's request token may not be reused for other contents.
  const moveId = newId('mov');
  const automatic = to.reason === 'auto';
  const conditions = [
    'attribute_exists(id)',
    from === null ? 'attribute_not_exists(#production)' : '#production.#deploymentId = :from',
  ];
  if (automatic) conditions.push('(attribute_not_exists(#auto) OR #auto = :on)');
  return transactWrite((attempt) => ({
    ClientRequestToken: `${moveId}-${attempt}`,
    TransactItems: [
      {
        Update: {
          TableName: projectsTable(),
          Key: { ownerId, id: projectId },
          UpdateExpression: 'SET #production = :pointer, #auto = :auto',
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: {
            '#production': 'production',
            '#auto': 'autoPromotion',
            ...(from === null ? {} : { '#deploymentId': 'deploymentId' }),
          },
          ExpressionAttributeValues: {
            ':pointer': to,
            ':auto': movesForward(to.reason),
            ...(from === null ? {} : { ':from': from }),
            ...(automatic ? { ':on': true } : {}),
          },
        },
      },
      {
        Put: {
          TableName: environmentTable(),
          Item: {
            projectId,
            sk: moveKey(moveId),
            id: moveId,
            deploymentId: to.deploymentId,
            previousDeploymentId: from,
            reason: to.reason,
            at: to.promotedAt,
            keyId,
          },
        },
      },
      // A forward move records where a rollback from its deployment goes; a rollback keeps the
      // record of the deployment it went back to.
      ...(movesForward(to.reason)
        ? [
            {
              Put: {
                TableName: environmentTable(),
                Item: { projectId, sk: markerKey(to.deploymentId), rollbackTo: to.rollbackTo },
              },
            },
          ]
        : []),
    ],
  }));
}

/** Turns automatic promotion back on; the project as it now is, or undefined when it is gone. */
export async function resumeAutoPromotion(ownerId: string, projectId: string): Promise<Project | undefined> {
  const updated = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: projectsTable(),
        Key: { ownerId, id: projectId },
        UpdateExpression: 'SET #auto = :on',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeNames: { '#auto': 'autoPromotion' },
        ExpressionAttributeValues: { ':on': true },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return updated.failed ? undefined : toProject(updated.result.Attributes ?? {});
}

export interface ProductionMoveEntry {
  deploymentId: string;
  previousDeploymentId: string | null;
  reason: ProductionReason;
  at: string;
  keyId: string | null;
}

const toEntry = (item: Record<string, unknown>): ProductionMoveEntry => ({
  deploymentId: String(item.deploymentId),
  previousDeploymentId: typeof item.previousDeploymentId === 'string' ? item.previousDeploymentId : null,
  reason: item.reason === 'promote' || item.reason === 'rollback' ? item.reason : 'auto',
  at: String(item.at),
  keyId: typeof item.keyId === 'string' ? item.keyId : null,
});

/** A page of a project's moves, newest first (the caller has checked that the project is theirs). */
export async function listProductionMoves(
  projectId: string,
  page: PageRequest,
): Promise<Page<ProductionMoveEntry>> {
  const result = await queryPage(
    {
      scope: `production:${projectId}`,
      query: {
        TableName: environmentTable(),
        KeyConditionExpression: 'projectId = :project AND begins_with(sk, :moves)',
        ExpressionAttributeValues: { ':project': projectId, ':moves': MOVE_PREFIX },
      },
      resume: { keyOf: (moveId) => ({ projectId, sk: moveKey(moveId) }) },
    },
    page,
  );
  return { items: result.items.map(toEntry), nextCursor: result.nextCursor };
}
