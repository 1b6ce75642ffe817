import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../schemas/common.ts';
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
  /** The full key of the item with the given id, to resume after it. */
  keyOf: (id: string) => Record<string, string>;
}

/**
 * One page of a newest-first Query. Asks for one item more than the page, so that `nextCursor` is
 * null on the last page instead of pointing at an empty one.
 */
export async function queryPage(
  paged: PagedQuery,
  page: PageRequest,
): Promise<Page<Record<string, unknown>>> {
  const startAfter = page.cursor === undefined ? undefined : decodeCursor(paged.scope, page.cursor);
  const { Items = [] } = await db.send(
    new QueryCommand({
      ...paged.query,
      ScanIndexForward: false,
      Limit: page.limit + 1,
      ...(startAfter === undefined ? {} : { ExclusiveStartKey: paged.keyOf(startAfter) }),
    }),
  );
  const items = Items.slice(0, page.limit);
  const last = items.at(-1);
  const hasMore = Items.length > page.limit && last !== undefined;
  return { items, nextCursor: hasMore ? encodeCursor(paged.scope, String(last.id)) : null };
}
