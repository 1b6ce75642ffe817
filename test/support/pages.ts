import { call } from './http.ts';

/**
 * Follows `nextCursor` from the first page of a list to its last, asserting 200 on each, and
 * returns every item in the order served plus the number of pages it took.
 */
export async function walkPages<T>(
  listUrl: string,
  key: string,
  listName: string,
  limit: number,
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
  } while (cursor);
  return { items, pages };
}
