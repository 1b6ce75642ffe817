import type { TableKey } from '#shared/db/tables.ts';

// The CloudFormation logical ids of everything that holds data, pinned to the ids they were first
// deployed with. A logical id is derived from the construct's path: renaming or moving a construct
// would otherwise make CloudFormation create a new, empty table and drop the old one from the stack.
// A new table gets its id here when it is added; test/infra/platform-stack.test.ts fails if one moves.

export const pinnedLogicalIds = {
  tables: {
    apiKeys: 'ApiKeysTable9F4DC7E7',
    idempotency: 'IdempotencyTable22A5A209',
    rateLimits: 'RateLimitsTable24B09F2E',
    users: 'UsersTable9725E9C8',
    projects: 'ProjectsTableAA0A2089',
    deployments: 'DeploymentsTable5D087E52',
    // Added after ids were pinned: readable ids from the start.
    webhooks: 'WebhooksTable',
    webhookDeliveries: 'WebhookDeliveriesTable',
    environment: 'EnvironmentTable',
    deploymentLogs: 'DeploymentLogsTable',
    teams: 'TeamsTable',
    domains: 'DomainsTable',
    auditEvents: 'AuditEventsTable',
  } satisfies Record<TableKey, string>,
  secrets: {
    CursorSecret: 'CursorSecretABAE1358',
    KeySigningSeed: 'KeySigningSeed',
  },
  keys: {
    EnvironmentKey: 'EnvironmentKey',
  },
} as const;
