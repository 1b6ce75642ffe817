import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';
import { conditionally } from '#shared/db/conditional.ts';
import { decodeCursor, encodeCursor } from '#shared/db/cursor.ts';
import type { Page } from '#shared/db/pages.ts';
import type { AuditEvent, AuditOutcome } from '#shared/model/audit.ts';
import { idAtTime } from '#shared/model/ids.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { table, toAuditEvent } from './events.ts';

// Reading and writing a team's audit log (audit-events.ts says how it is stored).

/**
 * Puts an event unless one with its id is there: a stream record handed over twice, or a change
 * that wrote its item twice, is one event, the first.
 */
export async function putEvent(item: Record<string, unknown>): Promise<void> {
  await conditionally(() =>
    db.send(
      new PutCommand({ TableName: table(), Item: item, ConditionExpression: 'attribute_not_exists(id)' }),
    ),
  );
}

export interface EventFilters {
  /** Epoch milliseconds, inclusive. */
  since?: number | undefined;
  until?: number | undefined;
  /** An action, or `<word>.*`: every action that begins with `<word>.`. */
  action?: string | undefined;
  actorId?: string | undefined;
  projectId?: string | undefined;
  outcome?: AuditOutcome | undefined;
}

/** Reads of one page at most: a filter that matches little answers a short page and a cursor. */
const MAX_READS = 5;
const READ_SIZE = 200;

function filterExpression(filters: EventFilters) {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const add = (path: string[], value: string | undefined, prefix = false) => {
    if (value === undefined) return;
    const name = path.map((part) => `#f_${part}`).join('.');
    for (const part of path) names[`#f_${part}`] = part;
    values[`:f_${path.join('_')}`] = value;
    clauses.push(prefix ? `begins_with(${name}, :f_${path.join('_')})` : `${name} = :f_${path.join('_')}`);
  };
  const { action } = filters;
  if (action?.endsWith('.*')) add(['action'], action.slice(0, -1), true);
  else add(['action'], action);
  add(['actor', 'id'], filters.actorId);
  add(['projectId'], filters.projectId);
  add(['outcome'], filters.outcome);
  return { clauses, names, values };
}

/** A page of a team's events, newest first, that pass the filters. */
export async function listEvents(
  teamId: string,
  filters: EventFilters,
  page: PageRequest,
): Promise<Page<AuditEvent>> {
  const scope = `audit:${teamId}`;
  const below = page.cursor === undefined ? undefined : await decodeCursor(scope, page.cursor);
  const lowest = idAtTime('aud', filters.since ?? 0, 'first');
  const highest = idAtTime('aud', filters.until ?? Date.parse('9999-12-31T23:59:59.999Z'), 'last');
  const filter = filterExpression(filters);
  const found: Record<string, unknown>[] = [];
  if (below !== undefined && below <= lowest) return { items: [], nextCursor: null };
  // A cursor resumes below the last event it stood for (the start key need not be an event's, but
  // must lie in the range the query reads).
  let start: Record<string, unknown> | undefined =
    below === undefined || below > highest ? undefined : { teamId, id: below };
  let lastRead: string | undefined;
  for (let reads = 0; reads < MAX_READS && found.length <= page.limit; reads++) {
    const answer = await db.send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'teamId = :team AND id BETWEEN :lowest AND :highest',
        ...(filter.clauses.length > 0 ? { FilterExpression: filter.clauses.join(' AND ') } : {}),
        ...(Object.keys(filter.names).length > 0 ? { ExpressionAttributeNames: filter.names } : {}),
        ExpressionAttributeValues: {
          ':team': teamId,
          ':lowest': lowest,
          ':highest': highest,
          ...filter.values,
        },
        ScanIndexForward: false,
        Limit: READ_SIZE,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    found.push(...(answer.Items ?? []));
    start = answer.LastEvaluatedKey;
    lastRead = start === undefined ? undefined : String(start.id);
    if (!start) break;
  }
  const items = found.slice(0, page.limit);
  // More to read when the page is full and something follows, or when the reads ran out first.
  const resumeAt =
    found.length > page.limit ? String(items.at(-1)?.id) : start !== undefined ? lastRead : undefined;
  return {
    items: items.map(toAuditEvent),
    nextCursor: resumeAt === undefined ? null : await encodeCursor(scope, resumeAt),
  };
}
