import { isDeepStrictEqual } from 'node:util';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { isDomainItem, toDomain } from '#shared/db/custom-domains/domains.ts';
import { toDeployment } from '#shared/db/deployments/deployments.ts';
import { HEAD_KEY as ENVIRONMENT_HEAD, type EnvironmentChange } from '#shared/db/environment/variables.ts';
import { toProject } from '#shared/db/projects.ts';
import { allWebhooksOf } from '#shared/db/webhooks/webhooks.ts';
import { ENTERED_AT, type ReportableState } from '#shared/model/deployments/states.ts';
import { type WebhookEventType, wants } from '#shared/model/webhook-events.ts';
import { clock } from '#shared/runtime/clock.ts';
import { logError } from '#shared/runtime/log.ts';
import type { WebhookEventData } from '#shared/schemas/webhooks/events.ts';
import { type DeliveryMessage, messageIdOf } from './messages.ts';

// From a change in the store to the messages that deliver it. Stream records of the projects and
// deployments tables (new and old images) become events: a project put, changed or removed (or its
// production pointer moved: `project.production_changed`, with the pointer before and after); a
// deployment created or moved to another status; a change of a project's environment variables (the
// head item of its set, which every change rewrites with what it changed: keys and targets, never a
// value; the variables' own items, sealed, mean nothing here); a custom domain verified or expired. Each event becomes one message per subscription
// of its owner that wants it. A record handed over twice (streams are at least once) makes the
// same messages with the same ids, so a receiver sees one `webhook-id` for one event.

export interface WebhookEvent {
  /** The stream record's id: what makes an event the same on a second reading. */
  sourceId: string;
  ownerId: string;
  type: WebhookEventType;
  timestamp: string;
  /** Typed from the schema the document describes the delivery with (shared/schemas/webhooks/events.ts). */
  data: WebhookEventData<WebhookEventType>;
}

type Image = Record<string, unknown>;

const imageOf = (image: unknown): Image | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

const isReportable = (status: unknown): status is ReportableState =>
  typeof status === 'string' && status in ENTERED_AT;

/** The deployment a project image's production pointer names, if any. */
const productionOf = (image?: Image): string | undefined => {
  const pointer = image?.production as Record<string, unknown> | undefined;
  return typeof pointer?.deploymentId === 'string' ? pointer.deploymentId : undefined;
};

/**
 * Whether a project's change shows: its item also carries what the API never shows (the copy of
 * its variables' head, rewritten by every change of its variables, `project.env.updated`).
 */
const projectShownChanged = (next?: Image, previous?: Image): boolean =>
  !next || !previous || !isDeepStrictEqual(toProject(next), toProject(previous));

/** What a record means to subscribers, if anything (a backfill of list keys means nothing). */
function eventTypeOf(
  kind: DynamoDBRecord['eventName'],
  next?: Image,
  previous?: Image,
): WebhookEventType | undefined {
  const id = String((next ?? previous)?.id ?? '');
  if (kind === 'MODIFY' && next && isDomainItem(next) && next.status !== previous?.status) {
    if (next.status === 'verified') return 'domain.verified';
    if (next.status === 'expired') return 'domain.expired';
    return undefined;
  }
  if (id.startsWith('prj_')) {
    if (kind === 'INSERT') return 'project.created';
    if (kind === 'MODIFY' && productionOf(next) !== productionOf(previous))
      return 'project.production_changed';
    if (kind === 'MODIFY') return projectShownChanged(next, previous) ? 'project.updated' : undefined;
    if (kind === 'REMOVE') return 'project.deleted';
  }
  if (next?.sk === ENVIRONMENT_HEAD && next.lastChange !== undefined && kind !== 'REMOVE') {
    return 'project.env.updated';
  }
  if (id.startsWith('dpl_')) {
    if (kind === 'INSERT') return 'deployment.created';
    if (kind === 'MODIFY' && next?.status !== previous?.status && isReportable(next?.status)) {
      return `deployment.${next.status}`;
    }
  }
  return undefined;
}

/** The event a stream record stands for, or undefined when it stands for none. */
export function eventOf(record: DynamoDBRecord): WebhookEvent | undefined {
  const next = imageOf(record.dynamodb?.NewImage);
  const previous = imageOf(record.dynamodb?.OldImage);
  const type = eventTypeOf(record.eventName, next, previous);
  const image = next ?? previous;
  if (type === undefined || image === undefined) return undefined;
  const seconds = record.dynamodb?.ApproximateCreationDateTime;
  return {
    sourceId:
      record.eventID ?? `${String(image.id ?? image.pk)}@${String(image.updatedAt ?? image.lastCheckedAt)}`,
    ownerId: String(image.ownerId),
    type,
    timestamp: new Date(seconds === undefined ? clock.now() : seconds * 1000).toISOString(),
    data: dataOf(type, image, previous),
  };
}

function dataOf(type: WebhookEventType, image: Image, previous?: Image): WebhookEventData<WebhookEventType> {
  if (type === 'project.production_changed') {
    const project = toProject(image);
    const before = previous ? toProject(previous).production : null;
    return {
      projectId: project.id,
      reason: project.production?.reason ?? null,
      production: project.production,
      previousProduction: before,
      project,
    };
  }
  if (type === 'project.env.updated') {
    const { revision: _revision, ...change } = image.lastChange as EnvironmentChange & { revision?: number };
    return { projectId: String(image.projectId), ...change };
  }
  if (type.startsWith('domain.')) return toDomain(image);
  return type.startsWith('project.') ? toProject(image) : toDeployment(image);
}

type SubscriptionsOf = typeof allWebhooksOf;
type Subscriptions = Map<string, Awaited<ReturnType<SubscriptionsOf>>>;

/** The messages of one stream record: one per interested, enabled subscription of its owner. */
async function messagesOfRecord(
  record: DynamoDBRecord,
  owners: Subscriptions,
  subscriptionsOf: SubscriptionsOf,
): Promise<DeliveryMessage[]> {
  const event = eventOf(record);
  if (!event) return [];
  let owned = owners.get(event.ownerId);
  if (!owned) {
    owned = await subscriptionsOf(event.ownerId);
    owners.set(event.ownerId, owned);
  }
  return owned
    .filter((webhook) => webhook.enabled && wants(webhook.events, event.type))
    .map((webhook) => ({
      messageId: messageIdOf(event.sourceId, webhook.id),
      ownerId: event.ownerId,
      webhookId: webhook.id,
      type: event.type,
      timestamp: event.timestamp,
      data: event.data,
      attempt: 1,
    }));
}

/** Messages are sent in groups of at least this many (SQS takes ten per call). */
const SEND_GROUP = 10;

/**
 * Turns a batch of stream records into messages and sends them, in order. When reading the
 * subscriptions or sending fails, the answer names the first record whose messages were not sent:
 * the stream hands it and the ones after it over again (records before it are done), and after the
 * mapping's retries the batch goes to its on-failure destination. A record sent twice makes the same
 * message ids, so receivers can tell the repeat.
 */
export async function fanOut(
  records: readonly DynamoDBRecord[],
  send: (messages: DeliveryMessage[]) => Promise<void>,
  subscriptionsOf: SubscriptionsOf = allWebhooksOf,
): Promise<DynamoDBBatchResponse> {
  const owners: Subscriptions = new Map();
  let pending: DeliveryMessage[] = [];
  let firstUnsent: DynamoDBRecord | undefined;
  const failedAt = (record: DynamoDBRecord, error: unknown): DynamoDBBatchResponse => {
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    logError('webhook fan-out failed; the stream hands the batch over again from', { sequenceNumber }, error);
    return { batchItemFailures: [{ itemIdentifier: sequenceNumber }] };
  };
  for (const record of records) {
    try {
      const messages = await messagesOfRecord(record, owners, subscriptionsOf);
      if (messages.length > 0) firstUnsent ??= record;
      pending.push(...messages);
      if (pending.length >= SEND_GROUP) {
        await send(pending);
        pending = [];
        firstUnsent = undefined;
      }
    } catch (error) {
      return failedAt(firstUnsent ?? record, error);
    }
  }
  if (pending.length > 0 && firstUnsent) {
    try {
      await send(pending);
    } catch (error) {
      return failedAt(firstUnsent, error);
    }
  }
  return { batchItemFailures: [] };
}
