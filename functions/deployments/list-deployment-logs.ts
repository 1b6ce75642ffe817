import { followDeploymentLogs } from '#shared/domain/deployments/log-follow.ts';
import { listDeploymentLogs } from '#shared/domain/deployments/logs.ts';
import { eventStream, wantsEventStream } from '#shared/http/answers/event-stream.ts';
import { readerGone, streamedEndpoint } from '#shared/http/answers/streaming.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { config } from '#shared/runtime/config.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { LogQuery, LogStreamHeaders } from '#shared/schemas/deployments/log-query.ts';
import { pageOf } from '#shared/schemas/page-query.ts';

// One function for both answers of GET /deployments/{id}/logs (API Gateway integrates a method with
// one function, and a streaming integration invokes it streaming either way): a page of JSON, or,
// when the client asks for it, the log followed as text/event-stream.

const follow = {
  pollMs: config.LOG_STREAM_POLL_MS,
  keepaliveMs: config.LOG_STREAM_KEEPALIVE_MS,
  lifetimeMs: config.LOG_STREAM_LIFETIME_MS,
  roundDeadlineMs: config.REQUEST_DEADLINE_MS,
};

export const handler = streamedEndpoint(
  keyEndpoint(
    'list-deployment-logs',
    { params: IdParams, query: LogQuery, headers: LogStreamHeaders },
    async ({ caller, params, query, headers, request, reply }) => {
      if (wantsEventStream(query.follow, request.accept)) {
        // Last-Event-ID (a reconnect) wins over since.
        const after = headers['Last-Event-ID'] ?? query.since ?? 0;
        const events = await followDeploymentLogs(caller, params.id, after, follow, readerGone());
        return reply.events(eventStream(events));
      }
      const page = await listDeploymentLogs(caller, params.id, {
        ...pageOf(query),
        ...(query.since === undefined ? {} : { since: query.since }),
      });
      return reply.ok({ lines: page.items, nextCursor: page.nextCursor });
    },
  ),
);
