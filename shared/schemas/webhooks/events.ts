import * as z from 'zod/mini';
import { REPORTABLE_STATES } from '#shared/model/deployments/states.ts';
import { ENVIRONMENT_TARGETS, VARIABLE_TYPES } from '#shared/model/environment-variables.ts';
import { PRODUCTION_REASONS } from '#shared/model/production.ts';
import { type DeliveredEventType, PING_EVENT, WEBHOOK_EVENT_TYPES } from '#shared/model/webhook-events.ts';
import { Domain } from '#shared/schemas/domain-resources.ts';
import { Deployment, ProductionPointer, Project, prefixedId, Timestamp } from '#shared/schemas/resources.ts';

// What a delivery's body is, per event type: `{type, timestamp, data}`. The fan-out and the ping
// build `data` typed from these schemas (WebhookEventData), the OpenAPI document's `webhooks` renders
// them (one entry per type), the SDK's `WebhookEvent` union is generated from that, and the webhook
// tests check every delivery they receive against its entry. Like resources.ts, only the document
// imports this module at run time.

const projectId = prefixedId('prj', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A');

export const ProductionChange = z
  .strictObject({
    projectId,
    reason: z.nullable(z.enum(PRODUCTION_REASONS)),
    production: z.nullable(ProductionPointer),
    previousProduction: z.nullable(ProductionPointer).register(z.globalRegistry, {
      description: 'The pointer before the move; null when the project had no production deployment.',
    }),
    project: Project,
  })
  .register(z.globalRegistry, {
    id: 'ProductionChange',
    description: "A move of a project's production pointer: before, after, why, and the project after it.",
  });

export const EnvironmentChange = z
  .strictObject({
    projectId,
    change: z.enum(['created', 'updated', 'deleted', 'replaced']),
    variables: z.array(
      z.strictObject({
        key: z.string(),
        targets: z.array(z.enum(ENVIRONMENT_TARGETS)),
        type: z.enum(VARIABLE_TYPES),
      }),
    ),
    at: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'EnvironmentChange',
    description:
      "A change of a project's environment variables: the keys and targets it touched (for a replace, the new set), never a value.",
  });

export const PingData = z
  .strictObject({ webhookId: prefixedId('whk', 'whk_01JD8Z6D4E5F6G7H8J9K0M1N2P') })
  .register(z.globalRegistry, {
    id: 'WebhookPing',
    description: 'Sent by `POST /webhooks/{id}/test` to that subscription only.',
  });

type DataSchema =
  | typeof Deployment
  | typeof Project
  | typeof ProductionChange
  | typeof EnvironmentChange
  | typeof Domain;

/** The schema of each event's `data`, and what it means. */
const eventData = {
  'deployment.created': [Deployment, 'A deployment was created (`queued`).'],
  ...(Object.fromEntries(
    REPORTABLE_STATES.map((state) => [
      `deployment.${state}`,
      [Deployment, `A deployment moved to \`${state}\`.`],
    ]),
  ) as Record<`deployment.${(typeof REPORTABLE_STATES)[number]}`, [typeof Deployment, string]>),
  'project.created': [Project, 'A project was created.'],
  'project.updated': [Project, 'A project was changed (not its production pointer).'],
  'project.deleted': [Project, 'A project was deleted: `data` is the project as it was.'],
  'project.production_changed': [
    ProductionChange,
    "The project's production pointer moved (automatically, by a promote or by a rollback).",
  ],
  'project.env.updated': [EnvironmentChange, "The project's environment variables changed."],
  'domain.verified': [Domain, "A custom domain's ownership record holds its value: the domain is verified."],
  'domain.expired': [Domain, 'A custom domain was still pending 7 days after it was added: it expired.'],
} satisfies Record<(typeof WEBHOOK_EVENT_TYPES)[number], [DataSchema, string]>;

/** `deployment.ready` → `DeploymentReadyEvent`, the component's name. */
const componentName = (type: string): string =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

const envelope = (type: DeliveredEventType, data: DataSchema | typeof PingData, description: string) =>
  z
    .strictObject({ type: z.literal(type), timestamp: Timestamp, data })
    .register(z.globalRegistry, { id: componentName(type), description });

/** The body of every delivery, by event type (`ping` last). */
export const webhookEventBodies = Object.fromEntries([
  ...WEBHOOK_EVENT_TYPES.map((type) => {
    const [data, description] = eventData[type];
    return [type, envelope(type, data, description)] as const;
  }),
  [PING_EVENT, envelope(PING_EVENT, PingData, 'A test delivery (`POST /webhooks/{id}/test`).')] as const,
]) as Record<DeliveredEventType, ReturnType<typeof envelope>>;

/** The `data` of a delivery of `type`, as the fan-out and the ping build it. */
export type WebhookEventData<T extends DeliveredEventType = DeliveredEventType> = T extends typeof PING_EVENT
  ? z.output<typeof PingData>
  : z.output<(typeof eventData)[Exclude<T, typeof PING_EVENT>][0]>;
