import { isDeepStrictEqual } from 'node:util';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { conditionally, putNew } from '#shared/db/conditional.ts';
import { forEachPage } from '#shared/db/pages.ts';
import { indexes } from '#shared/db/tables.ts';
import { updateExpression } from '#shared/db/update-expression.ts';
import {
  type DeploymentState,
  ENTERED_AT,
  predecessorsOf,
  type ReportableState,
} from '#shared/model/deployments/states.ts';
import { clock } from '#shared/runtime/clock.ts';
import { type Deployment, statusOf, table, toDeployment } from './deployments.ts';
import { purgeLog } from './logs.ts';

// A deployment's writes: its creation, its status changes (one conditional UpdateItem each, the
// event appended to its history in the same write, so history and status never disagree and a lost
// race leaves no event behind), and the purge of a deleted project's deployments.

/**
 * The production deployment a new production deployment was created over (null: none), when
 * automatic promotion was on then: its promotion's first guess at what it replaces, so that it
 * need not read the project (shared/domain/production.ts). Never shown.
 */
const PROMOTES_OVER = 'promotesOver';

/**
 * Puts a new deployment, with its target (production or preview): what its build-env answers, a
 * redeploy keeps, lists filter by and automatic promotion looks at (and `promotesOver`, given).
 */
export async function putDeployment(
  ownerId: string,
  deployment: Deployment,
  promotion: { promotesOver?: string | null } = {},
): Promise<void> {
  await putNew(
    (input) => db.send(new PutCommand(input)),
    {
      TableName: table(),
      Item: {
        ownerId,
        ...deployment,
        ...(promotion.promotesOver === undefined ? {} : { [PROMOTES_OVER]: promotion.promotesOver }),
        events: [
          {
            status: deployment.status,
            at: deployment.createdAt,
            ...(deployment.commitSha === undefined ? {} : { commitSha: deployment.commitSha }),
          },
        ],
      },
    },
    'id',
  );
}

export interface Transition {
  to: ReportableState;
  at: string;
  message?: string;
  url?: string;
  commitSha?: string;
}

export type TransitionResult =
  | { outcome: 'moved'; deployment: Deployment; promotesOver?: string | null }
  | { outcome: 'refused'; current: DeploymentState }
  | { outcome: 'missing' };

/**
 * Moves a deployment to `to` in one conditional UpdateItem: the condition is that its status is one
 * of `to`'s predecessors, so two racing reports cannot both win. The event joins the history in the
 * same write; the one index entry (`byProject`) is rewritten in place, never moved. On a failed
 * condition the item as it was says why: gone, or in a status that does not lead to `to`.
 */
export async function applyTransition(
  ownerId: string,
  deployment: Pick<Deployment, 'id'>,
  change: Transition,
): Promise<TransitionResult> {
  const { to, at, message, url, commitSha } = change;
  const event = {
    status: to,
    at,
    ...(message === undefined ? {} : { message }),
    ...(url === undefined ? {} : { url }),
    ...(commitSha === undefined ? {} : { commitSha }),
  };
  const set: Record<string, unknown> = {
    status: to,
    updatedAt: at,
    [ENTERED_AT[to]]: at,
    ...(to === 'error' && message !== undefined ? { errorMessage: message } : {}),
    ...(url === undefined ? {} : { url }),
    ...(commitSha === undefined ? {} : { commitSha }),
  };
  const from = predecessorsOf(to);
  const update = await conditionally(() =>
    db.send(
      new UpdateCommand({
        TableName: table(),
        Key: { ownerId, id: deployment.id },
        ...updateExpression({
          set,
          extraSet: ['#events = list_append(if_not_exists(#events, :none), :event)'],
          names: { '#events': 'events', '#status': 'status' },
          values: {
            ':event': [event],
            ':none': [],
            ...Object.fromEntries(from.map((state, index) => [`:from${index}`, state])),
          },
        }),
        ConditionExpression: `#status IN (${from.map((_, index) => `:from${index}`).join(', ')})`,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (!update.failed) return moved(update.result.Attributes ?? {});
  // Refused by its own write, applied though its answer was lost (the SDK sent it again): the
  // item already ends with this very event (its time to the millisecond).
  const events = update.old?.events;
  if (Array.isArray(events) && isDeepStrictEqual(events.at(-1), event)) {
    return moved(update.old ?? {});
  }
  return update.old ? { outcome: 'refused', current: statusOf(update.old.status) } : { outcome: 'missing' };
}

const moved = (item: Record<string, unknown>): TransitionResult => {
  const over = item[PROMOTES_OVER];
  return {
    outcome: 'moved',
    deployment: toDeployment(item),
    ...(PROMOTES_OVER in item ? { promotesOver: typeof over === 'string' ? over : null } : {}),
  };
};

/** How many deployments one purge pass reads, and deletes at once. */
const PURGE_PAGE = 25;

/**
 * Deletes a project's deployments (their histories are inside them) and their build logs, a page at
 * a time, until none is left or `until` has passed; whether none is left. Each deployment's log goes
 * first: one cut short keeps its deployment, so the next pass finds the log again. Idempotent: the project's DELETE runs it within
 * its request, and the purge consumer of the project's removal again in the background, so a project
 * with many deployments neither holds its request nor keeps any.
 */
export async function purgeProjectDeployments(projectId: string, until: number): Promise<boolean> {
  let logsGone = true;
  const throughAll = await forEachPage(
    {
      TableName: table(),
      IndexName: indexes.deployments.byProject.name,
      KeyConditionExpression: '#project = :projectId',
      ExpressionAttributeNames: { '#project': indexes.deployments.byProject.partitionKey },
      ExpressionAttributeValues: { ':projectId': projectId },
      ProjectionExpression: 'ownerId, id',
      Limit: PURGE_PAGE,
    },
    async ({ items }) => {
      const gone = await Promise.all(
        items.map(async (item) => {
          if (!(await purgeLog(String(item.id), until))) return false;
          await db.send(
            new DeleteCommand({ TableName: table(), Key: { ownerId: item.ownerId, id: item.id } }),
          );
          return true;
        }),
      );
      logsGone = gone.every(Boolean);
      return logsGone && clock.now() < until;
    },
  );
  return logsGone && throughAll;
}
