import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { eventItem } from '#shared/db/audit/events.ts';
import { changesOf, kindOf, projectOfItem, targetIdOf, teamOfItem } from '#shared/db/audit/kinds.ts';
import { type EventFilters, listEvents, putEvent } from '#shared/db/audit/log.ts';
import { auditScope } from '#shared/db/audit/scope.ts';
import type { Page } from '#shared/db/pages.ts';
import { emailsOf, userIdOfEmail } from '#shared/db/users.ts';
import { type AuditEvent, type AuditStamp, kindOfAction, targetTypeOf } from '#shared/model/audit.ts';
import type { Caller } from '#shared/model/caller.ts';
import { logError } from '#shared/runtime/log.ts';
import type { PageRequest } from '#shared/schemas/common.ts';

// The audit log's events: made from a change's stream record, recorded for a refusal or for a change
// that writes nothing, and read back by the team's admins.

type Item = Record<string, unknown>;

const imageOf = (image: unknown): Item | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

/** A domain check's action as it turned out: the status it moved to, when it moved. */
function actionAsItTurnedOut(stamp: AuditStamp, previous: Item | undefined, next: Item): string {
  if (stamp.action === 'domain.checked' && previous?.status !== next.status) {
    if (next.status === 'verified') return 'domain.verified';
    if (next.status === 'expired') return 'domain.expired';
  }
  return stamp.action;
}

/**
 * The event a stream record stands for: its write's stamp, about the item the stamp's
 * action names; nothing for any other record (a stamp left from an earlier write, another item of
 * the same change).
 */
export function eventOfRecord(record: DynamoDBRecord): Item | undefined {
  const next = imageOf(record.dynamodb?.NewImage);
  const previous = imageOf(record.dynamodb?.OldImage);
  const stamp = next?.audit as AuditStamp | undefined;
  if (!next || !stamp || stamp.id === (previous?.audit as AuditStamp | undefined)?.id) return undefined;
  const kind = kindOf(next);
  if (kind === undefined || kind !== kindOfAction(stamp.action)) return undefined;
  return eventItem(stamp, {
    outcome: 'success',
    action: actionAsItTurnedOut(stamp, previous, next),
    target: { type: targetTypeOf(stamp.action), id: targetIdOf(kind, next) },
    projectId: projectOfItem(kind, next) ?? stamp.projectId,
    teamId: teamOfItem(kind, next),
    changes:
      record.eventName === 'MODIFY' ? changesOf(kind, previous, next) : changesOf(kind, undefined, next),
  });
}

/** Records the event of a stream record, once however often it is handed over. */
export async function recordFromStream(record: DynamoDBRecord): Promise<void> {
  const item = eventOfRecord(record);
  if (item) await putEvent(item);
}

/** Records a refusal; a failure to is logged, never thrown: the caller still gets its 403. */
export async function recordDenial(stamp: AuditStamp, target: AuditEvent['target']): Promise<void> {
  try {
    await putEvent(eventItem(stamp, { outcome: 'denied', target, projectId: stamp.projectId }));
  } catch (error) {
    logError('audit: a refusal could not be recorded', { requestId: stamp.requestId }, error);
  }
}

/**
 * Records the running change when it writes no item of its own (a test delivery is a message, not
 * a write): before the answer, and failing the request if it cannot.
 */
export async function recordChange(target: AuditEvent['target']): Promise<void> {
  const scope = auditScope();
  if (!scope?.stamp) throw new Error('recordChange runs inside a change (shared/http/audit-trail.ts)');
  await putEvent(eventItem(scope.stamp, { outcome: 'success', target, projectId: scope.stamp.projectId }));
  scope.carried = true;
}

/**
 * A page of the caller's team's events, newest first, each person's email beside their id. The
 * email is read with the page (one BatchGetItem of the page's people), not kept in the events:
 * a user's email never changes, and it still names one who has left the team. So `actorEmail` filters
 * by the id of the user with that email: a person's events are found by the email the log shows.
 */
export async function listAuditEvents(
  caller: Caller,
  { actorEmail, ...filters }: EventFilters & { actorEmail?: string | undefined },
  page: PageRequest,
): Promise<Page<AuditEvent>> {
  if (actorEmail !== undefined) {
    const actorId = await userIdOfEmail(actorEmail);
    if (actorId === undefined) return { items: [], nextCursor: null };
    filters.actorId = actorId;
  }
  const found = await listEvents(caller.team.id, filters, page);
  const people = new Set(found.items.flatMap(({ actor }) => (actor.type === 'user' ? [actor.id] : [])));
  const emails = await emailsOf([...people]);
  const items = found.items.map((event) => {
    const email = event.actor.type === 'user' ? emails.get(event.actor.id) : undefined;
    return email === undefined ? event : { ...event, actor: { ...event.actor, email } };
  });
  return { ...found, items };
}
