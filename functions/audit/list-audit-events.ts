import { listAuditEvents } from '#shared/domain/audit.ts';
import { keyEndpoint } from '#shared/http/endpoint.ts';
import { AuditEventsQuery } from '#shared/schemas/audit.ts';
import { pageOf } from '#shared/schemas/page-query.ts';
import { TeamParams } from '#shared/schemas/teams/params.ts';

export const handler = keyEndpoint(
  'list-audit-events',
  { params: TeamParams, query: AuditEventsQuery },
  async ({ caller, query, reply }) => {
    const { since, until, action, actorId, actorEmail, projectId, outcome } = query;
    const page = await listAuditEvents(
      caller,
      { since, until, action, actorId, actorEmail, projectId, outcome },
      pageOf(query),
    );
    return reply.ok({ events: page.items, nextCursor: page.nextCursor });
  },
);
