import type { DocumentedReply, HandlerName, ReplyHelpers } from './reply-types.ts';
import type { Reply } from './types.ts';

/**
 * The reply helpers of handler H. At run time they are the same for every route; their type
 * narrows each to the statuses and bodies H's rows in the route table document.
 */
export function repliesFor<H extends HandlerName>(): ReplyHelpers<H> {
  // The one place a reply becomes a documented one: the helpers' parameter types did the checking.
  const documented = (reply: Reply) => reply as DocumentedReply<H>;
  return {
    ok: (body) => documented({ status: 200, body }),
    created: (body: { id: string }, collectionPath: string) =>
      documented({
        status: 201,
        body,
        headers: { Location: `${collectionPath.replace(/\/+$/, '')}/${encodeURIComponent(body.id)}` },
      }),
    json: (status, body) => documented({ status, body }),
    text: (mediaType: string, body: string, headers: Record<string, string> = {}) =>
      documented({ status: 200, body, headers, mediaType }),
  };
}
