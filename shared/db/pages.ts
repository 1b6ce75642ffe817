import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '#shared/schemas/common.ts';
import { db } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

interface PagedQuery {
  /** What the cursor is bound to, e.g. `projects:<ownerId>`. */
  scope: string;
  /** The Query, without Limit and ExclusiveStartKey. Results come newest first. */
  query: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>;
  /**
   * How to resume after the item with the given id: its full key (ExclusiveStartKey), or, where
   * that key holds something a client must not see in a cursor (the API-key digest), the name of
   * the sort key to continue below.
   */
  resume: { keyOf: (id: string) => Record<string, string>; idAttribute?: string } | { below: string };
}

/** The attribute whose value a cursor carries: `id`, unless the resume names another. */
const cursorAttribute = (resume: PagedQuery['resume']): string =>
  'below' in resume ? resume.below : (resume.idAttribute ?? 'id');

function resumeAfter(paged: PagedQuery, lastId: string): Partial<QueryCommandInput> {
  const { resume, query } = paged;
  if ('keyOf' in resume) return { ExclusiveStartKey: resume.keyOf(lastId) };
  return {
    KeyConditionExpression: `${query.KeyConditionExpression} AND #resumeBelow < :resumeBelow`,
    ExpressionAttributeNames: { ...query.ExpressionAttributeNames, '#resumeBelow': resume.below },
    ExpressionAttributeValues: { ...query.ExpressionAttributeValues, ':resumeBelow': lastId },
  };
}

/**
 * One page of a newest-first Query. Asks for one item more than the page, so that `nextCursor` is
 * null on the last page instead of pointing at an empty one.
 */
export async function queryPage(
  paged: PagedQuery,
  page: PageRequest,
): Promise<Page<Record<string, unknown>>> {
  const startAfter = page.cursor === undefined ? undefined : await decodeCursor(paged.scope, page.cursor);
  const { Items = [] } = await db.send(
    new QueryCommand({
      ...paged.query,
      ...(startAfter === undefined ? {} : resumeAfter(paged, startAfter)),
      ScanIndexForward: false,
      Limit: page.limit + 1,
    }),
  );
  const items = Items.slice(0, page.limit);
  const last = items.at(-1);
  const hasMore = Items.length > page.limit && last !== undefined;
  return {
    items,
    nextCursor: hasMore ? await encodeCursor(paged.scope, String(last[cursorAttribute(paged.resume)])) : null,
  };
}

/**
 * Every page of a Query, one after the other, handed to `each` (a whole partition: a team's items, an
 * owner's keys). For what must be read or changed whole, never for a page a client asked for. Each
 * page goes on from where the one before ended (never from the start again: a read that lags shows
 * items just deleted). `each` returning false stops there; whether every page was handed over.
 */
export async function forEachPage(
  query: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
  // `unknown`: most callers return nothing; only `false` is read.
  each: (page: { items: Record<string, unknown>[]; count: number }) => unknown,
): Promise<boolean> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({ ...query, ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    const goOn = await each({ items: page.Items ?? [], count: page.Count ?? 0 });
    start = page.LastEvaluatedKey;
    if (goOn === false && start) return false;
  } while (start);
  return true;
}
