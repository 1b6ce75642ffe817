import * as z from 'zod/mini';
import { NextCursor, Timestamp } from './resources.ts';

// The audit log's events as the API shows them. Like resources.ts, only the document imports this
// module at run time.

const exampleEvent = {
  id: 'aud_01JD8Z6D7E8F9G0H1J2K3M4N5P',
  teamId: 'team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B',
  at: '2026-11-25T09:15:00.000Z',
  action: 'production.promoted',
  outcome: 'success',
  actor: {
    type: 'user',
    id: 'usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y',
    email: 'ada@example.com',
    keyId: 'key_01JD8Z5C6D7E8F9G0H1J2K3M4N',
  },
  target: { type: 'project', id: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A' },
  projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
  requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
  ip: '203.0.113.7',
  userAgent: 'platform-cli/1.4.0',
  changes: {
    production: { from: 'dpl_01JD8Z4A5B6C7D8E9F0G1H2J3K', to: 'dpl_01JD8Z7E8F9G0H1J2K3M4N5P6Q' },
  },
} as const;

const Change = z.strictObject({ from: z.unknown(), to: z.unknown() });

export const AuditEvent = z
  .strictObject({
    id: z.string(),
    teamId: z.string(),
    at: Timestamp,
    action: z.string().register(z.globalRegistry, {
      description:
        '`resource.verb`: what was done (docs/audit-log.md lists them); for a refusal, what the refused request would have done, or, for a request that changes nothing, the permission it lacked (e.g. `audit.read`).',
    }),
    outcome: z.enum(['success', 'denied']),
    actor: z.strictObject({
      type: z.enum(['user', 'token', 'system']),
      id: z.string().register(z.globalRegistry, {
        description: "The user's id, the team token's id, or `platform` for the platform's own moves.",
      }),
      email: z.optional(
        z.string().register(z.globalRegistry, {
          description:
            "A user's email, also once they have left the team; absent for a token or the platform.",
        }),
      ),
      name: z.optional(
        z.string().register(z.globalRegistry, {
          description: "A team token's name, as it was when it acted; absent for a user or the platform.",
        }),
      ),
      keyId: z.optional(
        z.string().register(z.globalRegistry, { description: "The user's key that made the request." }),
      ),
    }),
    target: z.strictObject({ type: z.string(), id: z.string() }),
    projectId: z.optional(z.string()),
    requestId: z.string().register(z.globalRegistry, {
      description: 'The `X-Request-Id` of the response that made the change or the refusal.',
    }),
    ip: z.string(),
    userAgent: z.string(),
    changes: z.optional(z.record(z.string(), Change)).register(z.globalRegistry, {
      description:
        'What changed, field by field, `from` before and `to` after; for variables, the ones touched (key, targets, type), never a value.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'AuditEvent',
    description: 'One change made in a team, or one request refused there, and who made it, from where.',
    examples: [exampleEvent],
  });

export const AuditEventList = z
  .strictObject({ events: z.array(AuditEvent), nextCursor: NextCursor })
  .register(z.globalRegistry, { id: 'AuditEventList', description: "A team's audit events, newest first." });
