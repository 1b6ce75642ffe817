import type { Reply } from '#shared/http/types.ts';
import type { DocumentedReply, HandlerName, ReplyHelpers } from './reply-types.ts';

/**
 * The reply helpers of handler H. At run time they are the same for every route; their type
 * narrows each to the statuses and bodies H's rows in the route table document.
 */
export function repliesFor<H extends HandlerName>(): ReplyHelpers<H> {
  // The one place a reply becomes a documented one: the helpers' parameter types did the checking.
  const documented = (reply: Reply) => reply as DocumentedReply<H>;
  const created = (body: unknown, collectionPath: string, id: string) =>
    documented({
      status: 201,
      body,
      headers: { Location: `${collectionPath.replace(/\/+$/, '')}/${encodeURIComponent(id)}` },
    });
  return {
    ok: (body) => documented({ status: 200, body }),
    okWith: (body, headers: Record<string, string>) => documented({ status: 200, body, headers }),
    created: (body: { id: string }, collectionPath: string) => created(body, collectionPath, body.id),
    createdWithId: (body: unknown, collectionPath: string, id: string) => created(body, collectionPath, id),
    json: (status, body) => documented({ status, body }),
    noContent: () => documented({ status: 204 }),
    events: (events: AsyncIterable<string>) =>
      documented({
        status: 200,
        body: '',
        mediaType: 'text/event-stream',
        // Never from a cache: each event is news.
        headers: { 'Cache-Control': 'no-cache' },
        events,
      }),
    text: (mediaType: string, body: string, headers: Record<string, string> = {}) =>
      documented({ status: 200, body, headers, mediaType }),
  };
}
