import type { ProxyResult, Reply } from '#shared/http/types.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The one way a response is built: JSON body, content type, extra headers. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ProxyResult {
  return {
    statusCode: status,
    headers: { 'Content-Type': JSON_TYPE, ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}

/** Adds headers to a response that is already built. */
export function withHeaders(response: ProxyResult, headers: Record<string, string>): ProxyResult {
  return { ...response, headers: { ...response.headers, ...headers } };
}

/** A handler's reply as the API Gateway result: JSON, or its own media type as UTF-8 text. */
export function replyResult(reply: Reply): ProxyResult {
  // No content, and so no Content-Type to describe it.
  if (reply.status === 204) return { statusCode: 204, headers: { ...reply.headers }, body: '' };
  if (reply.mediaType === undefined) return jsonResponse(reply.status, reply.body, reply.headers);
  return {
    statusCode: reply.status,
    headers: { 'Content-Type': `${reply.mediaType}; charset=utf-8`, ...reply.headers },
    body: reply.body,
    // An event stream's body: carried beside the result (the chain's headers are spread onto it).
    ...(reply.events ? { events: reply.events } : {}),
  };
}
