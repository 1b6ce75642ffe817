import * as z from 'zod/mini';
import { DEPLOYMENT_STATES } from '#shared/model/deployments/states.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { ID_PATTERN } from '#shared/model/ids.ts';
import { PRODUCTION_REASONS } from '#shared/model/production.ts';
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
