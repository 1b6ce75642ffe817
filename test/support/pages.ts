import { call } from './http.ts';

/**
 * Follows `nextCursor` from the first page of a list to its last, asserting 200 on each, and
 * returns every item in the order served plus the number of pages it took. With `until`, it stops
 * after the first page on which `until(items so far)` holds: a list that other test files add to
 * while it is read (the admin's user list) is read only as far as this test's own items.
 */
export async function walkPages<T>(
  listUrl: string,
  key: string,
  listName: string,
  limit: number,
  until?: (items: T[]) => boolean,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `${listUrl.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await call(`${listUrl}${query}`, { key });
    expect(response.status).toBe(200);
    const body = response.body as Record<string, unknown> & { nextCursor: string | null };
    items.push(...(body[listName] as T[]));
    cursor = body.nextCursor;
    pages += 1;
  } while (cursor && !until?.(items));
  return { items, pages };
}
