import * as z from 'zod/mini';
import { DEPLOYMENT_STATES } from '#shared/model/deployment-states.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployment-target.ts';
import { ID_PATTERN } from '#shared/model/ids.ts';
import { PRODUCTION_REASONS } from '#shared/model/production.ts';
import { SCOPES } from '#shared/model/scopes.ts';
import { SUBSCRIBABLE_EVENTS } from '#shared/model/webhook-events.ts';
import { Timestamp } from './scalars.ts';

// What the API answers about its resources. The domain's types are these schemas' outputs, and the
// handlers' replies are typed from them through the route table, so a field cannot be returned
// without being here; the OpenAPI document renders them as components (`id` below). Only the
// document imports this module at run time: function bundles see its types, not its code.

export { Timestamp };

export const NextCursor = z.nullable(z.string()).register(z.globalRegistry, {
  description:
    'Pass as `cursor` to get the next page; `null` on the last page. Opaque and signed: a changed cursor is a 400.',
  examples: [null],
});

export const prefixedId = (prefix: string, example: string) =>
  z
    .string()
    .check(z.regex(new RegExp(`^${prefix}_${ID_PATTERN.source.slice(1)}`)))
    .register(z.globalRegistry, {
      description: `\`${prefix}_\` and a ULID: opaque to clients, sorts by creation time`,
      examples: [example],
    });

/** Which deployment a project serves in production, and how it got there. */
export const ProductionPointer = z
  .strictObject({
    deploymentId: prefixedId('dpl', 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M'),
    url: z.nullable(z.string()).register(z.globalRegistry, {
      description: 'Where that deployment is served, as last reported; null when it reported none.',
    }),
    promotedAt: Timestamp,
    reason: z.enum(PRODUCTION_REASONS).register(z.globalRegistry, {
      description:
        '`auto`: a production deployment became ready, newer than the one before it; `promote`: promoted by `POST /projects/{id}/promote`; `rollback`: put back by `POST /projects/{id}/rollback`.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'ProductionPointer',
    description: "The project's production deployment.",
    examples: [
      {
        deploymentId: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M',
        url: 'https://web-4f2a.example.app',
        promotedAt: '2026-11-22T09:18:40.000Z',
        reason: 'auto',
      },
    ],
  });

export const Project = z
  .strictObject({
    id: prefixedId('prj', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A'),
    name: z.string(),
    repository: z.nullable(z.string()),
    productionBranch: z.string(),
    production: z.nullable(ProductionPointer).register(z.globalRegistry, {
      description: 'The deployment live in production; null until one becomes production.',
    }),
    autoPromotion: z.boolean().register(z.globalRegistry, {
      description:
        'Whether a `production` deployment that becomes ready (and is newer than the current one) becomes production by itself. A rollback turns it off; a promote turns it on again.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'Project',
    description: 'A project: what gets deployed. `repository` is an https URL, `owner/name` or null.',
    examples: [
      {
        id: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
        name: 'web',
        repository: 'acme/web',
        productionBranch: 'main',
        production: null,
        autoPromotion: true,
        createdAt: '2026-11-22T09:15:42.123Z',
        updatedAt: '2026-11-22T09:15:42.123Z',
      },
    ],
  });

export const Deployment = z
  .strictObject({
    id: prefixedId('dpl', 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M'),
    projectId: prefixedId('prj', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A'),
    branch: z.string(),
    status: z.enum(DEPLOYMENT_STATES),
    target: z.enum(DEPLOYMENT_TARGETS).register(z.globalRegistry, {
      description:
        "`production` when its branch is the project's production branch (unless created with another `target`), else `preview`. It picks the environment variables it builds with, and only `production` deployments become production by themselves.",
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    buildingAt: z.optional(Timestamp).register(z.globalRegistry, {
      description: 'When it started building; absent until then.',
    }),
    readyAt: z.optional(Timestamp).register(z.globalRegistry, { description: 'When it became `ready`.' }),
    erroredAt: z.optional(Timestamp).register(z.globalRegistry, { description: 'When it failed (`error`).' }),
    canceledAt: z.optional(Timestamp).register(z.globalRegistry, { description: 'When it was canceled.' }),
    errorMessage: z.optional(z.string()).register(z.globalRegistry, {
      description: 'The message of the report that moved it to `error`, when it had one.',
    }),
    url: z.optional(z.string()).register(z.globalRegistry, {
      description: 'Where it is served (https), as last reported.',
    }),
    commitSha: z.optional(z.string()).register(z.globalRegistry, {
      description: 'The commit it builds, as reported (or copied from the deployment it redeploys).',
    }),
    redeployOf: z.optional(prefixedId('dpl', 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M')).register(z.globalRegistry, {
      description: 'The deployment this one redeploys (same project, branch and commit).',
    }),
  })
  .register(z.globalRegistry, {
    id: 'Deployment',
    description:
      'One deployment of a project. A new deployment is `queued`; it moves `queued → building → ready | error`, or `queued | building → canceled`, and terminal states never change. The optional fields appear as they happen.',
    examples: [
      {
        id: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M',
        projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
        branch: 'main',
        status: 'queued',
        target: 'production',
        createdAt: '2026-11-22T09:16:03.456Z',
        updatedAt: '2026-11-22T09:16:03.456Z',
      },
    ],
  });

/** A change of status: the deployment's creation (`queued`) or a report that moved it. */
const DeploymentStatusEvent = z
  .strictObject({
    status: z.enum(DEPLOYMENT_STATES),
    at: Timestamp,
    message: z.optional(z.string()),
    url: z.optional(z.string()),
    commitSha: z.optional(z.string()),
  })
  .register(z.globalRegistry, {
    id: 'DeploymentStatusEvent',
    description: 'One step of a deployment: its creation (`queued`) or a status report that moved it.',
    examples: [{ status: 'building', at: '2026-11-22T09:16:05.000Z', message: 'npm run build' }],
  });

/** A read of the deployment's build environment (its variables, secrets included), by a `build` key. */
const BuildEnvReadEvent = z
  .strictObject({
    type: z.literal('build-env-read'),
    keyId: prefixedId('key', 'key_01JD8Z5C6D7E8F9G0H1J2K3M4N'),
    at: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'BuildEnvReadEvent',
    description:
      "A read of `GET /deployments/{id}/build-env`: which key read the deployment's variables, secrets included, and when. Refused reads are not recorded.",
    examples: [
      { type: 'build-env-read', keyId: 'key_01JD8Z5C6D7E8F9G0H1J2K3M4N', at: '2026-11-22T09:16:04.000Z' },
    ],
  });

export const DeploymentEvent = z
  .union([DeploymentStatusEvent, BuildEnvReadEvent])
  .register(z.globalRegistry, {
    id: 'DeploymentEvent',
    description:
      'An entry of the history: a change of status (it has `status`), or a read of the build environment (`type: "build-env-read"`).',
  });

export const DeploymentEventList = z
  .strictObject({ events: z.array(DeploymentEvent) })
  .register(z.globalRegistry, {
    id: 'DeploymentEventList',
    description:
      "A deployment's history, oldest first: every change of status, each with the report that made it, and every read of its build environment. Not paged: a deployment changes status at most three times, and its build environment is read while it builds.",
  });

const exampleUser = {
  id: 'usr_01JD8Z2N4P6Q8R0S2T4V6W8X0Y',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'member',
  createdAt: '2026-11-22T09:14:10.000Z',
} as const;

export const User = z
  .strictObject({
    id: prefixedId('usr', exampleUser.id),
    email: z.string(),
    name: z.nullable(z.string()),
    role: z.enum(['admin', 'member']),
    createdAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'User',
    description: 'A user. Never carries a password or its hash.',
    examples: [exampleUser],
  });

export const LoginResult = z
  .strictObject({
    apiKey: z.string().check(z.regex(/^plat_[0-9A-Za-z]{38}$/)),
    tokenType: z.literal('Bearer'),
    expiresAt: Timestamp,
    user: User,
  })
  .register(z.globalRegistry, {
    id: 'LoginResult',
    description:
      'A new API key, shown this once (only its SHA-256 digest is stored). Send it as `Authorization: Bearer <apiKey>`.',
    examples: [
      {
        apiKey: 'plat_3xAmPLeKeY0nLy4D0cUmEnTaT10n5aBcD1e2F3',
        tokenType: 'Bearer',
        expiresAt: '2026-12-22T09:15:00.000Z',
        user: exampleUser,
      },
    ],
  });

export const ProjectList = z
  .strictObject({ projects: z.array(Project), nextCursor: NextCursor })
  .register(z.globalRegistry, { id: 'ProjectList', description: 'A page of projects, newest first.' });

export const ProductionMove = z
  .strictObject({
    deploymentId: prefixedId('dpl', 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M'),
    previousDeploymentId: z
      .nullable(prefixedId('dpl', 'dpl_01JD8Z4A1B2C3D4E5F6G7H8J9K'))
      .register(z.globalRegistry, {
        description: 'The production deployment before the move; null for the first.',
      }),
    reason: z.enum(PRODUCTION_REASONS),
    at: Timestamp,
    keyId: z.nullable(prefixedId('key', 'key_01JD8Z5C6D7E8F9G0H1J2K3M4N')).register(z.globalRegistry, {
      description: 'The API key that promoted or rolled back; null for an automatic promotion.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'ProductionMove',
    description: "One move of a project's production pointer.",
    examples: [
      {
        deploymentId: 'dpl_01JD8Z4A1B2C3D4E5F6G7H8J9K',
        previousDeploymentId: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M',
        reason: 'rollback',
        at: '2026-11-22T10:02:11.000Z',
        keyId: 'key_01JD8Z5C6D7E8F9G0H1J2K3M4N',
      },
    ],
  });

export const ProductionHistory = z
  .strictObject({ moves: z.array(ProductionMove), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'ProductionHistory',
    description: "A page of a project's production moves, newest first.",
  });

export const DeploymentList = z
  .strictObject({ deployments: z.array(Deployment), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'DeploymentList',
    description:
      'A page of deployments, newest first, full whenever more match. Filtered and per-project lists are read from indexes that DynamoDB fills asynchronously: a new deployment or a change of status may take a moment to show there.',
  });

export const UserList = z
  .strictObject({ users: z.array(User), nextCursor: NextCursor })
  .register(z.globalRegistry, { id: 'UserList', description: 'A page of users, newest first.' });

const exampleKey = {
  id: 'key_01JD8Z5C3D4E5F6G7H8J9K0M1N',
  name: 'ci deploys',
  prefix: 'plat_3xAm',
  last4: 'F3k9',
  scopes: ['read', 'write'],
  createdAt: '2026-11-22T09:20:00.000Z',
  expiresAt: '2026-12-22T09:20:00.000Z',
  lastUsedAt: null,
} as const;

export const ApiKey = z
  .strictObject({
    id: prefixedId('key', exampleKey.id),
    name: z.string(),
    prefix: z.string().register(z.globalRegistry, {
      description: "The key's first 9 characters: enough to recognise it, not to use it.",
    }),
    last4: z.string().register(z.globalRegistry, { description: "The key's last 4 characters." }),
    scopes: z.array(z.enum(SCOPES)),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    lastUsedAt: z.nullable(Timestamp).register(z.globalRegistry, {
      description: 'When the key last made a request that was admitted (to the second); null if never.',
    }),
    revokedAt: z.optional(Timestamp).register(z.globalRegistry, {
      description: 'When the key was revoked; absent while it is not.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'ApiKey',
    description: 'An API key as its owner sees it: never the secret, never its digest.',
    examples: [exampleKey],
  });

export const CreatedApiKey = z
  .strictObject({
    apiKey: z.string().check(z.regex(/^plat_[0-9A-Za-z]{38}$/)),
    key: ApiKey,
  })
  .register(z.globalRegistry, {
    id: 'CreatedApiKey',
    description:
      'A new API key: `apiKey` is its secret, shown this once (only its SHA-256 digest is stored).',
    examples: [{ apiKey: 'plat_3xAmPLeKeY0nLy4D0cUmEnTaT10n5aBcD1F3k9', key: exampleKey }],
  });

export const ApiKeyList = z
  .strictObject({ keys: z.array(ApiKey), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'ApiKeyList',
    description:
      "A page of the caller's keys, newest first, revoked and expired ones included. Read from an index that DynamoDB fills asynchronously: a new key may take a moment to appear.",
  });

const exampleWebhook = {
  id: 'whk_01JD8Z6D4E5F6G7H8J9K0M1N2P',
  url: 'https://hooks.example.com/platform',
  events: ['deployment.ready', 'deployment.error'],
  description: 'slack',
  enabled: true,
  disabledAt: null,
  disabledReason: null,
  createdAt: '2026-11-22T09:25:00.000Z',
  updatedAt: '2026-11-22T09:25:00.000Z',
} as const;

export const Webhook = z
  .strictObject({
    id: prefixedId('whk', exampleWebhook.id),
    url: z.string(),
    events: z.array(z.enum(SUBSCRIBABLE_EVENTS)),
    description: z.nullable(z.string()),
    enabled: z.boolean().register(z.globalRegistry, {
      description: 'false when paused by its owner or disabled after failing for a day.',
    }),
    disabledAt: z.nullable(Timestamp).register(z.globalRegistry, {
      description:
        'When the service stopped deliveries because every attempt of an event failed for the whole retry schedule; null otherwise.',
    }),
    disabledReason: z.nullable(z.string()).register(z.globalRegistry, {
      description:
        'Why the service disabled it (the delivery log, `GET /webhooks/{id}/deliveries`, shows each failed attempt); PATCH `{"enabled": true}` re-enables it.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'Webhook',
    description: 'A webhook subscription as its owner sees it: never its signing secret.',
    examples: [exampleWebhook],
  });

export const CreatedWebhook = z
  .strictObject({
    secret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/]{43}=$/)),
    webhook: Webhook,
  })
  .register(z.globalRegistry, {
    id: 'CreatedWebhook',
    description:
      '`secret` verifies the `webhook-signature` of every delivery (Standard Webhooks); it is shown this once.',
    examples: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9ohMDAOC5vg=', webhook: exampleWebhook }],
  });

export const WebhookList = z
  .strictObject({ webhooks: z.array(Webhook), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'WebhookList',
    description: "A page of the caller's webhooks, newest first.",
  });

export const WebhookDelivery = z
  .strictObject({
    id: prefixedId('wdl', 'wdl_01JD8Z7E5F6G7H8J9K0M1N2P3Q'),
    messageId: z.string().register(z.globalRegistry, {
      description: 'The `webhook-id` header: the same on every attempt of one event.',
    }),
    event: z.string().register(z.globalRegistry, { description: 'The event type, or `ping`.' }),
    attempt: z.int().check(z.minimum(1)),
    outcome: z.enum(['succeeded', 'retrying', 'failed', 'dropped']).register(z.globalRegistry, {
      description:
        '`retrying`: failed, another attempt at `nextRetryAt`; `failed`: the last attempt of the schedule (about a day) failed too, the event is not sent again (a subscription with no success since its first attempt is then disabled, see `disabledReason`); `dropped`: the subscription was deleted or disabled meanwhile.',
    }),
    statusCode: z.nullable(z.int()).register(z.globalRegistry, {
      description: "The receiver's HTTP status; null when no answer came (see `error`).",
    }),
    error: z.nullable(z.string()).register(z.globalRegistry, {
      description: 'Why no answer counted: a refused address, a timeout, a connection error.',
    }),
    durationMs: z.int().check(z.minimum(0)),
    attemptedAt: Timestamp,
    nextRetryAt: z.nullable(Timestamp),
  })
  .register(z.globalRegistry, {
    id: 'WebhookDelivery',
    description: 'One attempt to deliver one event.',
    examples: [
      {
        id: 'wdl_01JD8Z7E5F6G7H8J9K0M1N2P3Q',
        messageId: 'msg_2b0hqXh7Qd3JzYV9kRrXwWmFv1p',
        event: 'deployment.ready',
        attempt: 2,
        outcome: 'succeeded',
        statusCode: 204,
        error: null,
        durationMs: 84,
        attemptedAt: '2026-11-22T09:31:00.000Z',
        nextRetryAt: null,
      },
    ],
  });

export const WebhookDeliveryList = z
  .strictObject({ deliveries: z.array(WebhookDelivery), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'WebhookDeliveryList',
    description: "A page of a webhook's delivery attempts, newest first, kept 30 days.",
  });

export const WebhookTestResult = z
  .strictObject({ messageId: z.string(), event: z.literal('ping') })
  .register(z.globalRegistry, {
    id: 'WebhookTestResult',
    description:
      'A `ping` was queued for delivery; its attempts appear in the delivery log under `messageId`.',
  });
