import { type Scope, scopeFor } from '#shared/model/scopes.ts';

import type { ApiGroup, EndpointRoute, FallbackRoute, Route } from './route-types.ts';

// The route table: the one list of endpoints. The CDK stack builds one function per handler and one
// API Gateway method per row, granting exactly the tables the row names; the local gateway routes by
// the same rows; the OpenAPI document is generated from them (with the zod schemas they name), and
// the handlers' replies are typed from them; test/infra walks them. Adding an endpoint is one row
// here plus one file in functions/.
//
// Schemas are named, not imported: the fallbacks' bundles hold this table (every other function only
// its own rows, shared/http/own-rows.ts), and only the document needs every schema (the names are
// checked against shared/schemas/requests.ts and responses.ts).

export {
  type Access,
  type ApiGroup,
  type EndpointRoute,
  type FallbackRoute,
  type FunctionAccess,
  type KmsUse,
  type QueueKey,
  type ReplyHeader,
  type ReplySpec,
  type Route,
  stageNames,
  type TableAction,
  type TableGrants,
  type TextMediaType,
} from './route-types.ts';

// Every `apiKey` route counts requests on the key's item (UpdateItem on apiKeys), or per source
// address without a valid one (UpdateItem on rateLimits). It may update key items but never put one:
// only login and key creation issue keys (and only they can sign a key's identity,
// shared/domain/key-identity.ts). Each row lists its own tables, no shared objects spread in: every
// bundle carries only its own rows (shared/http/own-rows.ts).
/** Lists hand out signed cursors. */
const signsCursors = ['cursorKey'] as const;
/** Login and key creation sign the keys they issue. */
const issuesKeys = ['keySigningSeed'] as const;

export const FALLBACK_PATH = '/{proxy+}';

// Each row: where it is served and what it may touch, then what the document says about it. Every
// POST of the versioned API also writes the idempotency table (takesIdempotencyKey; a test checks it).
// biome-ignore format: rows read as a table
const routeTable = [
  // Versioned API ({base_url} = .../v1)
  { api: 'platform', method: 'GET', path: '/projects', handler: 'list-projects', access: 'apiKey', permission: 'projects.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['Query', 'BatchGetItem'] }, secrets: signsCursors,
    operationId: 'listProjects', tag: 'Projects', summary: 'List your projects, newest first', request: { query: 'PageQuery' }, replies: { 200: 'ProjectList' } },
  { api: 'platform', method: 'POST', path: '/projects', handler: 'create-project', access: 'apiKey', audit: 'project.created', permission: 'projects.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'ConditionCheckItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['PutItem'] },
    operationId: 'createProject', tag: 'Projects', summary: 'Create a project', request: { body: 'CreateProjectBody' }, replies: { 201: { body: 'Project', headers: ['Location'] } }, errors: ['conflict'] },
  { api: 'platform', method: 'GET', path: '/projects/{id}', handler: 'get-project', access: 'apiKey', permission: 'projects.read', membership: 'withResource', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['BatchGetItem'], projects: ['BatchGetItem', 'GetItem'] },
    operationId: 'getProject', tag: 'Projects', summary: 'Get one of your projects', request: { params: 'IdParams' }, replies: { 200: 'Project' }, errors: ['not_found'] },
  { api: 'platform', method: 'PATCH', path: '/projects/{id}', handler: 'update-project', access: 'apiKey', audit: 'project.updated', permission: 'projects.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['UpdateItem'] },
    operationId: 'updateProject', tag: 'Projects', summary: "Change a project's name, repository or production branch", request: { params: 'IdParams', body: 'UpdateProjectBody' }, replies: { 200: 'Project' }, errors: ['not_found'] },
  { api: 'platform', method: 'DELETE', path: '/projects/{id}', handler: 'delete-project', access: 'apiKey', audit: 'project.deleted', permission: 'projects.delete', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['DeleteItem'], deployments: ['Query:byProject', 'DeleteItem'], environment: ['Query', 'DeleteItem'], deploymentLogs: ['Query', 'DeleteItem'] },
    operationId: 'deleteProject', tag: 'Projects', summary: 'Delete a project, its deployments, their build logs and its environment variables (a large project\'s go shortly after)', request: { params: 'IdParams' }, replies: { 204: null }, errors: ['not_found'] },
  { api: 'platform', method: 'GET', path: '/projects/{id}/deployments', handler: 'list-project-deployments', access: 'apiKey', permission: 'deployments.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], deployments: ['Query:byProject'] }, secrets: signsCursors,
    operationId: 'listProjectDeployments', tag: 'Deployments', summary: "List a project's deployments, newest first, by status, branch and target", request: { params: 'IdParams', query: 'ProjectDeploymentsQuery' }, replies: { 200: 'DeploymentList' }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/projects/{id}/promote', handler: 'promote-production', access: 'apiKey', audit: 'production.promoted', permission: 'production.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['GetItem', 'UpdateItem'], deployments: ['GetItem'], environment: ['PutItem'] },
    operationId: 'promoteProduction', tag: 'Production', summary: 'Make a ready deployment of the project production (preview ones too); turns automatic promotion back on', request: { params: 'IdParams', body: 'PromoteBody' }, replies: { 200: 'Project' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'POST', path: '/projects/{id}/rollback', handler: 'rollback-production', access: 'apiKey', audit: 'production.rolled_back', permission: 'production.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['GetItem', 'UpdateItem'], deployments: ['GetItem'], environment: ['GetItem', 'PutItem'] },
    operationId: 'rollbackProduction', tag: 'Production', summary: 'Put an earlier production deployment back (by default the one before the current); pauses automatic promotion', request: { params: 'IdParams', body: 'RollbackBody' }, replies: { 200: 'Project' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/projects/{id}/production-history', handler: 'list-production-history', access: 'apiKey', permission: 'production.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], environment: ['Query'] }, secrets: signsCursors,
    operationId: 'listProductionHistory', tag: 'Production', summary: "Every move of the project's production pointer, newest first", request: { params: 'IdParams', query: 'PageQuery' }, replies: { 200: 'ProductionHistory' }, errors: ['not_found'] },
  // Custom domains: members read, admins write.
  { api: 'platform', method: 'GET', path: '/projects/{id}/domains', handler: 'list-domains', access: 'apiKey', permission: 'domains.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], domains: ['Query:byProject'] }, secrets: signsCursors,
    operationId: 'listDomains', tag: 'Domains', summary: "List a project's custom domains, newest first", request: { params: 'IdParams', query: 'PageQuery' }, replies: { 200: 'DomainList' }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/projects/{id}/domains', handler: 'create-domain', access: 'apiKey', audit: 'domain.created', permission: 'domains.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['ConditionCheckItem'], domains: ['GetItem', 'PutItem', 'UpdateItem'] },
    operationId: 'createDomain', tag: 'Domains', summary: 'Add a custom domain to a project (at most 50; a name is held by one project at a time)', request: { params: 'IdParams', body: 'CreateDomainBody' }, replies: { 201: { body: 'Domain', headers: ['Location'] } }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/projects/{id}/domains/{name}', handler: 'get-domain', access: 'apiKey', permission: 'domains.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], domains: ['GetItem'] },
    operationId: 'getDomain', tag: 'Domains', summary: "Get one of a project's domains: each record it needs and what DNS held at the last check", request: { params: 'DomainParams' }, replies: { 200: 'Domain' }, errors: ['not_found'] },
  { api: 'platform', method: 'DELETE', path: '/projects/{id}/domains/{name}', handler: 'delete-domain', access: 'apiKey', audit: 'domain.deleted', permission: 'domains.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], domains: ['DeleteItem', 'UpdateItem'] },
    operationId: 'deleteDomain', tag: 'Domains', summary: 'Remove a custom domain from a project (anyone may add the name again)', request: { params: 'DomainParams' }, replies: { 204: null }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/projects/{id}/domains/{name}/verify', handler: 'verify-domain', access: 'apiKey', audit: 'domain.checked', permission: 'domains.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['GetItem'], domains: ['GetItem', 'UpdateItem'] },
    operationId: 'verifyDomain', tag: 'Domains', summary: "Check a domain's DNS records now (a few seconds at most) and answer what was found", request: { params: 'DomainParams' }, replies: { 200: 'Domain' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/projects/{id}/env', handler: 'list-environment', access: 'apiKey', permission: 'variables.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], environment: ['GetItem', 'Query'] }, secrets: signsCursors, kms: ['decryptPlain'],
    operationId: 'listEnvironmentVariables', tag: 'Environment', summary: "List a project's environment variables, newest first (a secret's value never)", request: { params: 'IdParams', query: 'PageQuery' }, replies: { 200: 'EnvironmentVariableList' }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/projects/{id}/env', handler: 'create-environment-variable', access: 'apiKey', audit: 'env.variable_created', permission: 'variables.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['GetItem', 'UpdateItem'], environment: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] }, kms: ['encrypt'],
    operationId: 'createEnvironmentVariable', tag: 'Environment', summary: 'Add an environment variable to a project', request: { params: 'IdParams', body: 'CreateVariableBody' }, replies: { 201: 'EnvironmentVariable' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'PUT', path: '/projects/{id}/env', handler: 'replace-environment', access: 'apiKey', audit: 'env.replaced', permission: 'variables.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem', 'UpdateItem'], environment: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] }, kms: ['encrypt'],
    operationId: 'replaceEnvironmentVariables', tag: 'Environment', summary: "Replace all of a project's environment variables in one atomic step", request: { params: 'IdParams', body: 'ReplaceEnvironmentBody' }, replies: { 200: 'EnvironmentVariableSet' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'PATCH', path: '/projects/{id}/env/{envId}', handler: 'update-environment-variable', access: 'apiKey', audit: 'env.variable_updated', permission: 'variables.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem', 'UpdateItem'], environment: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] }, kms: ['encrypt', 'decryptPlain'],
    operationId: 'updateEnvironmentVariable', tag: 'Environment', summary: "Change an environment variable's value or targets", request: { params: 'VariableParams', body: 'UpdateVariableBody' }, replies: { 200: 'EnvironmentVariable' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'DELETE', path: '/projects/{id}/env/{envId}', handler: 'delete-environment-variable', access: 'apiKey', audit: 'env.variable_deleted', permission: 'variables.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem', 'UpdateItem'], environment: ['GetItem', 'Query', 'UpdateItem', 'DeleteItem'] },
    operationId: 'deleteEnvironmentVariable', tag: 'Environment', summary: 'Delete an environment variable', request: { params: 'VariableParams' }, replies: { 204: null }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'POST', path: '/deployments', handler: 'create-deployment', access: 'apiKey', audit: 'deployment.created', permission: 'deployments.write', membership: 'withResource', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['BatchGetItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['BatchGetItem', 'GetItem', 'UpdateItem'], deployments: ['BatchGetItem', 'GetItem', 'PutItem'], environment: ['GetItem', 'Query', 'PutItem'] },
    operationId: 'createDeployment', tag: 'Deployments', summary: 'Deploy a branch of one of your projects, or redeploy one of your deployments', request: { body: 'CreateDeploymentBody' }, replies: { 201: { body: 'Deployment', headers: ['Location'] } }, errors: ['not_found'] },
  { api: 'platform', method: 'GET', path: '/deployments', handler: 'list-deployments', access: 'apiKey', permission: 'deployments.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], projects: ['GetItem'], deployments: ['Query', 'Query:byProject'] }, secrets: signsCursors,
    operationId: 'listDeployments', tag: 'Deployments', summary: 'List all your deployments, newest first, by project, status, branch and target', request: { query: 'DeploymentsQuery' }, replies: { 200: 'DeploymentList' }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/deployments/{id}/events', handler: 'report-deployment-event', access: 'apiKey', audit: 'deployment.event_reported', permission: 'deployments.build', scope: ['write', 'build'], tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], deployments: ['UpdateItem', 'GetItem'], projects: ['GetItem', 'UpdateItem'], environment: ['PutItem'] },
    operationId: 'reportDeploymentEvent', tag: 'Deployments', summary: "Report a deployment's progress (a change of status); a production deployment that becomes ready may become production", request: { params: 'IdParams', body: 'ReportDeploymentEventBody' }, replies: { 200: 'Deployment' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/deployments/{id}/events', handler: 'list-deployment-events', access: 'apiKey', permission: 'deployments.read', scope: ['read', 'build'], tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], deployments: ['GetItem'] },
    operationId: 'listDeploymentEvents', tag: 'Deployments', summary: "A deployment's history, oldest first", request: { params: 'IdParams' }, replies: { 200: 'DeploymentEventList' }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/deployments/{id}/logs', handler: 'append-deployment-logs', access: 'apiKey', audit: 'deployment.logs_appended', permission: 'deployments.build', scope: 'build', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], deployments: ['GetItem', 'ConditionCheckItem'], deploymentLogs: ['GetItem', 'PutItem', 'UpdateItem'], environment: ['GetItem', 'Query'] }, kms: ['decrypt'],
    operationId: 'appendDeploymentLogs', tag: 'Logs', summary: "Append lines to a deployment's build log while it is queued or building (`build` scope; secret values masked as `***`)", request: { params: 'IdParams', body: 'AppendLogsBody' }, replies: { 201: 'AppendedLogs' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/deployments/{id}/logs', handler: 'list-deployment-logs', access: 'apiKey', permission: 'logs.read', scope: ['read', 'build'], tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], deployments: ['GetItem'], deploymentLogs: ['Query'] }, secrets: signsCursors, streams: true,
    operationId: 'listDeploymentLogs', tag: 'Logs', summary: "A deployment's build log, oldest first: a page at a time, or followed live as `text/event-stream` (`Accept: text/event-stream` or `?follow=1`)", request: { params: 'IdParams', query: 'LogQuery', headers: 'LogStreamHeaders' }, replies: { 200: { body: 'LogLineList', events: 'LogEventStream' } }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/deployments/{id}/cancel', handler: 'cancel-deployment', access: 'apiKey', audit: 'deployment.canceled', permission: 'deployments.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], deployments: ['UpdateItem', 'GetItem'] },
    operationId: 'cancelDeployment', tag: 'Deployments', summary: 'Cancel a queued or building deployment', request: { params: 'IdParams' }, replies: { 200: 'Deployment' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/deployments/{id}/build-env', handler: 'get-build-env', access: 'apiKey', audit: 'deployment.build_env_read', permission: 'deployments.build', scope: 'build', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], deployments: ['UpdateItem', 'GetItem'], environment: ['Query'], projects: ['GetItem'] }, kms: ['decrypt'],
    operationId: 'getBuildEnvironment', tag: 'Environment', summary: "A deployment's variables, secrets decrypted: for its build (`build` scope), while queued or building; each read is recorded in its events", request: { params: 'IdParams' }, replies: { 200: 'BuildEnvironment' }, errors: ['not_found', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/deployments/{id}/wait', handler: 'wait-for-deployment', access: 'apiKey', permission: 'deployments.read', scope: ['read', 'build'], tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], deployments: ['GetItem'] }, holdsOpenSeconds: 25,
    operationId: 'waitForDeployment', tag: 'Deployments', summary: 'Wait (up to `timeout` seconds) until a deployment is in one of the given states; `Wait-Result` says whether it got there', request: { params: 'IdParams', query: 'WaitQuery' }, replies: { 200: { body: 'Deployment', headers: ['Wait-Result'] } }, errors: ['not_found'] },
  { api: 'platform', method: 'GET', path: '/deployments/{id}', handler: 'get-deployment', access: 'apiKey', permission: 'deployments.read', membership: 'withResource', scope: ['read', 'build'], tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['BatchGetItem'], deployments: ['BatchGetItem', 'GetItem'] },
    operationId: 'getDeployment', tag: 'Deployments', summary: 'Get one of your deployments', request: { params: 'IdParams' }, replies: { 200: 'Deployment' }, errors: ['not_found'] },
  { api: 'platform', method: 'GET', path: '/keys', handler: 'list-keys', access: 'apiKey', tokens: 'refused', tables: { apiKeys: ['BatchGetItem', 'Query:ownerKeys', 'UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'] }, secrets: signsCursors,
    operationId: 'listKeys', tag: 'API keys', summary: 'List your API keys, newest first (never their secrets)', request: { query: 'PageQuery' }, replies: { 200: 'ApiKeyList' } },
  { api: 'platform', method: 'POST', path: '/keys', handler: 'create-key', access: 'apiKey', audit: 'key.created', tokens: 'refused', tables: { apiKeys: ['GetItem', 'PutItem', 'UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'] }, secrets: issuesKeys,
    operationId: 'createKey', tag: 'API keys', summary: 'Create an API key (its secret is shown once; at most 20 at once per user)', request: { body: 'CreateKeyBody' }, replies: { 201: { body: 'CreatedApiKey', headers: ['Location'] } }, errors: ['conflict'] },
  { api: 'platform', method: 'DELETE', path: '/keys/{id}', handler: 'revoke-key', access: 'apiKey', audit: 'key.revoked', tokens: 'refused', tables: { apiKeys: ['Query:ownerKeys', 'UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'] },
    operationId: 'revokeKey', tag: 'API keys', summary: 'Revoke one of your API keys, effective on its next request', request: { params: 'IdParams' }, replies: { 204: null }, errors: ['not_found'] },
  { api: 'platform', method: 'GET', path: '/webhooks', handler: 'list-webhooks', access: 'apiKey', permission: 'webhooks.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], webhooks: ['Query'] }, secrets: signsCursors,
    operationId: 'listWebhooks', tag: 'Webhooks', summary: 'List your webhook subscriptions, newest first (never their secrets)', request: { query: 'PageQuery' }, replies: { 200: 'WebhookList' } },
  { api: 'platform', method: 'POST', path: '/webhooks', handler: 'create-webhook', access: 'apiKey', audit: 'webhook.created', permission: 'webhooks.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'ConditionCheckItem'], idempotency: ['PutItem', 'UpdateItem'], webhooks: ['PutItem', 'UpdateItem'] },
    operationId: 'createWebhook', tag: 'Webhooks', summary: 'Subscribe a URL to events (its signing secret is shown once)', request: { body: 'CreateWebhookBody' }, replies: { 201: { body: 'CreatedWebhook', headers: ['Location'] } }, errors: ['conflict'] },
  { api: 'platform', method: 'GET', path: '/webhooks/{id}', handler: 'get-webhook', access: 'apiKey', permission: 'webhooks.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], webhooks: ['GetItem'] },
    operationId: 'getWebhook', tag: 'Webhooks', summary: 'Get one of your webhook subscriptions', request: { params: 'IdParams' }, replies: { 200: 'Webhook' }, errors: ['not_found'] },
  { api: 'platform', method: 'PATCH', path: '/webhooks/{id}', handler: 'update-webhook', access: 'apiKey', audit: 'webhook.updated', permission: 'webhooks.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], webhooks: ['UpdateItem'] },
    operationId: 'updateWebhook', tag: 'Webhooks', summary: 'Change, pause or re-enable a webhook subscription', request: { params: 'IdParams', body: 'UpdateWebhookBody' }, replies: { 200: 'Webhook' }, errors: ['not_found'] },
  { api: 'platform', method: 'DELETE', path: '/webhooks/{id}', handler: 'delete-webhook', access: 'apiKey', audit: 'webhook.deleted', permission: 'webhooks.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], webhooks: ['UpdateItem', 'DeleteItem'] },
    operationId: 'deleteWebhook', tag: 'Webhooks', summary: 'Delete a webhook subscription; pending deliveries are dropped', request: { params: 'IdParams' }, replies: { 204: null }, errors: ['not_found'] },
  { api: 'platform', method: 'POST', path: '/webhooks/{id}/test', handler: 'test-webhook', access: 'apiKey', audit: 'webhook.tested', permission: 'webhooks.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], idempotency: ['PutItem', 'UpdateItem'], webhooks: ['GetItem'] }, queues: ['webhookDeliveries'],
    operationId: 'testWebhook', tag: 'Webhooks', summary: 'Send a `ping` event to a webhook', request: { params: 'IdParams' }, replies: { 202: 'WebhookTestResult' }, errors: ['not_found'] },
  { api: 'platform', method: 'GET', path: '/webhooks/{id}/deliveries', handler: 'list-webhook-deliveries', access: 'apiKey', permission: 'webhooks.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], webhooks: ['GetItem'], webhookDeliveries: ['Query'] }, secrets: signsCursors,
    operationId: 'listWebhookDeliveries', tag: 'Webhooks', summary: "A webhook's delivery attempts, newest first", request: { params: 'IdParams', query: 'PageQuery' }, replies: { 200: 'WebhookDeliveryList' }, errors: ['not_found'] },
  // Teams: a team's own routes name it in the path; the rest are about the caller, in no one team.
  { api: 'platform', method: 'GET', path: '/teams', handler: 'list-teams', access: 'apiKey', tokens: 'refused', team: 'none', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['Query:byMember', 'BatchGetItem'], users: ['GetItem'] }, secrets: signsCursors,
    operationId: 'listTeams', tag: 'Teams', summary: 'List your teams: your personal team first, then those you joined', request: { query: 'PageQuery' }, replies: { 200: 'TeamList' } },
  { api: 'platform', method: 'POST', path: '/teams', handler: 'create-team', access: 'apiKey', audit: 'team.created', tokens: 'refused', team: 'none', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], idempotency: ['PutItem', 'UpdateItem'], teams: ['PutItem'], users: ['GetItem'] },
    operationId: 'createTeam', tag: 'Teams', summary: 'Create a team; you are its owner', request: { body: 'CreateTeamBody' }, replies: { 201: { body: 'Team', headers: ['Location'] } } },
  { api: 'platform', method: 'GET', path: '/teams/{teamId}', handler: 'get-team', access: 'apiKey', team: 'path', permission: 'team.read', membership: 'withResource', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'BatchGetItem'], users: ['GetItem'] },
    operationId: 'getTeam', tag: 'Teams', summary: 'Get one of your teams, with your role in it', request: { params: 'TeamParams' }, replies: { 200: 'Team' }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'PATCH', path: '/teams/{teamId}', handler: 'update-team', access: 'apiKey', audit: 'team.renamed', team: 'path', permission: 'team.update', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'UpdateItem'], users: ['GetItem'] },
    operationId: 'updateTeam', tag: 'Teams', summary: 'Rename a team (admins)', request: { params: 'TeamParams', body: 'UpdateTeamBody' }, replies: { 200: 'Team' }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'DELETE', path: '/teams/{teamId}', handler: 'delete-team', access: 'apiKey', audit: 'team.deleted', team: 'path', permission: 'team.delete', tables: { webhooks: ['Query', 'DeleteItem', 'UpdateItem'], apiKeys: ['UpdateItem', 'GetItem', 'Query:ownerKeys'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'Query', 'BatchWriteItem', 'PutItem', 'DeleteItem'], projects: ['Query'] },
    operationId: 'deleteTeam', tag: 'Teams', summary: 'Delete a team without projects (owners; never a personal team)', request: { params: 'TeamParams' }, replies: { 204: null }, errors: ['not_found', 'forbidden', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/teams/{teamId}/members', handler: 'list-team-members', access: 'apiKey', team: 'path', permission: 'members.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'Query'], users: ['GetItem'] }, secrets: signsCursors,
    operationId: 'listTeamMembers', tag: 'Teams', summary: "A team's members and their roles", request: { params: 'TeamParams', query: 'PageQuery' }, replies: { 200: 'MemberList' }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'PATCH', path: '/teams/{teamId}/members/{userId}', handler: 'update-team-member', access: 'apiKey', audit: 'member.role_changed', team: 'path', permission: 'members.write', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'UpdateItem'] },
    operationId: 'updateTeamMember', tag: 'Teams', summary: "Change a member's role (admins, up to admin; owners for owners); the last owner stays one", request: { params: 'MemberParams', body: 'UpdateMemberBody' }, replies: { 200: 'Member' }, errors: ['not_found', 'forbidden', 'conflict'] },
  { api: 'platform', method: 'DELETE', path: '/teams/{teamId}/members/{userId}', handler: 'remove-team-member', access: 'apiKey', audit: 'member.removed', team: 'path', permission: 'team.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'DeleteItem', 'UpdateItem'] },
    operationId: 'removeTeamMember', tag: 'Teams', summary: 'Remove a member (admins; owners for owners), or leave (your own user id); the last owner cannot go', request: { params: 'MemberParams' }, replies: { 204: null }, errors: ['not_found', 'forbidden', 'conflict'] },
  { api: 'platform', method: 'POST', path: '/teams/{teamId}/invitations', handler: 'create-invitation', access: 'apiKey', audit: 'invitation.created', team: 'path', permission: 'invitations.manage', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], idempotency: ['PutItem', 'UpdateItem'], teams: ['GetItem', 'PutItem'] },
    operationId: 'createInvitation', tag: 'Teams', summary: 'Invite an email into a team (admins): a one-use code, shown once, valid 7 days', request: { params: 'TeamParams', body: 'CreateInvitationBody' }, replies: { 201: { body: 'CreatedInvitation', headers: ['Location'] } }, errors: ['not_found', 'forbidden', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/teams/{teamId}/invitations', handler: 'list-invitations', access: 'apiKey', team: 'path', permission: 'invitations.manage', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'Query'] }, secrets: signsCursors,
    operationId: 'listInvitations', tag: 'Teams', summary: "A team's open invitations, newest first (admins; never their codes)", request: { params: 'TeamParams', query: 'PageQuery' }, replies: { 200: 'InvitationList' }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'DELETE', path: '/teams/{teamId}/invitations/{id}', handler: 'revoke-invitation', access: 'apiKey', audit: 'invitation.revoked', team: 'path', permission: 'invitations.manage', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'DeleteItem'] },
    operationId: 'revokeInvitation', tag: 'Teams', summary: 'Revoke an invitation: its code no longer works (admins)', request: { params: 'InvitationParams' }, replies: { 204: null }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'POST', path: '/teams/{teamId}/tokens', handler: 'create-team-token', access: 'apiKey', audit: 'token.created', team: 'path', permission: 'tokens.manage', tables: { apiKeys: ['UpdateItem', 'GetItem', 'PutItem'], rateLimits: ['UpdateItem'], teams: ['GetItem', 'ConditionCheckItem'], idempotency: ['PutItem', 'UpdateItem'], projects: ['BatchGetItem'] }, secrets: issuesKeys,
    operationId: 'createTeamToken', tag: 'Team tokens', summary: 'Make a team token for CI (admins): it acts as the team, within its projects and targets, and always expires; the secret is shown once', request: { params: 'TeamParams', body: 'CreateTeamTokenBody' }, replies: { 201: { body: 'CreatedTeamToken', headers: ['Location'] } }, errors: ['not_found', 'forbidden', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/teams/{teamId}/tokens', handler: 'list-team-tokens', access: 'apiKey', team: 'path', permission: 'tokens.manage', tables: { apiKeys: ['UpdateItem', 'BatchGetItem', 'Query:ownerKeys'], rateLimits: ['UpdateItem'], teams: ['GetItem'] }, secrets: signsCursors,
    operationId: 'listTeamTokens', tag: 'Team tokens', summary: "A team's tokens, newest first, with when each was last used (admins; never their secrets)", request: { params: 'TeamParams', query: 'PageQuery' }, replies: { 200: 'TeamTokenList' }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'DELETE', path: '/teams/{teamId}/tokens/{id}', handler: 'revoke-team-token', access: 'apiKey', audit: 'token.revoked', team: 'path', permission: 'tokens.manage', tables: { apiKeys: ['UpdateItem', 'Query:ownerKeys'], rateLimits: ['UpdateItem'], teams: ['GetItem'] },
    operationId: 'revokeTeamToken', tag: 'Team tokens', summary: "Revoke a team token, effective on its next request (admins)", request: { params: 'TokenParams' }, replies: { 204: null }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'GET', path: '/teams/{teamId}/audit-events', handler: 'list-audit-events', access: 'apiKey', team: 'path', permission: 'audit.read', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], teams: ['GetItem'], auditEvents: ['Query'], users: ['BatchGetItem'] }, secrets: signsCursors,
    operationId: 'listAuditEvents', tag: 'Audit log', summary: "A team's audit log, newest first: every change and every refusal, who made it and from where (admins)", request: { params: 'TeamParams', query: 'AuditEventsQuery' }, replies: { 200: 'AuditEventList' }, errors: ['not_found', 'forbidden'] },
  { api: 'platform', method: 'GET', path: '/invitations', handler: 'list-received-invitations', access: 'apiKey', tokens: 'refused', team: 'none', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], users: ['GetItem'], teams: ['Query', 'BatchGetItem'] }, secrets: signsCursors,
    operationId: 'listReceivedInvitations', tag: 'Teams', summary: "The open invitations to your account's email, newest first, with each team and inviter (never their codes: accepting needs the code the inviter passed on)", request: { query: 'PageQuery' }, replies: { 200: 'ReceivedInvitationList' } },
  { api: 'platform', method: 'POST', path: '/invitations/accept', handler: 'accept-invitation', access: 'apiKey', audit: 'member.joined', tokens: 'refused', team: 'none', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], idempotency: ['PutItem', 'UpdateItem'], teams: ['GetItem', 'ConditionCheckItem', 'DeleteItem', 'PutItem', 'UpdateItem'], users: ['GetItem'] },
    operationId: 'acceptInvitation', tag: 'Teams', summary: "Join a team with an invitation's code (the invited email's account only)", request: { body: 'AcceptInvitationBody' }, replies: { 200: 'AcceptedInvitation' }, errors: ['not_found', 'forbidden', 'conflict'] },
  { api: 'platform', method: 'GET', path: '/roles', handler: 'list-roles', access: 'apiKey', team: 'none', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'] },
    operationId: 'listRoles', tag: 'Teams', summary: 'The team roles, lowest first, and what each may do', replies: { 200: 'RoleList' } },
  { api: 'platform', method: 'ANY', path: FALLBACK_PATH, handler: 'platform-fallback', access: 'apiKey', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'] } },

  // Backend group ({backend_url})
  { api: 'backend', method: 'GET', path: '/health', handler: 'health', access: 'public', tables: { apiKeys: ['GetItem'] },
    operationId: 'getHealth', tag: 'Service', summary: 'Check that the service and its store answer', replies: { 200: 'Health', 503: 'Health' } },
  { api: 'backend', method: 'POST', path: '/auth/register', handler: 'register', access: 'authThrottled', tables: { rateLimits: ['UpdateItem'], users: ['GetItem', 'PutItem'] }, memoryMb: 1024,
    operationId: 'register', tag: 'Auth', summary: 'Create an account (always a member)', request: { body: 'RegisterBody' }, replies: { 201: 'User' }, errors: ['conflict'] },
  { api: 'backend', method: 'POST', path: '/auth/login', handler: 'login', access: 'authThrottled', tables: { rateLimits: ['UpdateItem'], users: ['GetItem', 'UpdateItem'], apiKeys: ['PutItem'] }, memoryMb: 1024, secrets: issuesKeys,
    operationId: 'login', tag: 'Auth', summary: 'Exchange email and password for an API key', request: { body: 'LoginBody' }, replies: { 200: 'LoginResult' }, errors: ['unauthorized'] },
  { api: 'backend', method: 'POST', path: '/auth/logout', handler: 'logout', access: 'apiKey', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'] }, scope: 'read',
    operationId: 'logout', tag: 'Auth', summary: 'Revoke the API key this request is made with' , replies: { 204: null } },
  { api: 'backend', method: 'GET', path: '/api/v1/users', handler: 'list-users', access: 'apiKey', tables: { apiKeys: ['UpdateItem'], rateLimits: ['UpdateItem'], users: ['Query:byCreation'] }, secrets: signsCursors,
    operationId: 'listUsers', tag: 'Users', summary: 'List all users, newest first (admins only)', request: { query: 'PageQuery' }, replies: { 200: 'UserList' }, errors: ['forbidden'] },
  // The document and its page: one function (`docs`) with no table access serves these rows. One row
  // per file rather than a `{proxy+}` row: every URL it answers is an operation of the document,
  // and anything else under /docs is the fallback's plain 404.
  { api: 'backend', method: 'GET', path: '/openapi.json', handler: 'docs', access: 'public', tables: {},
    operationId: 'getOpenApiDocument', tag: 'Documentation', summary: 'This API described in OpenAPI 3.1', replies: { 200: 'OpenApiDocument' } },
  { api: 'backend', method: 'GET', path: '/docs', handler: 'docs', access: 'public', tables: {},
    operationId: 'getDocs', tag: 'Documentation', summary: 'The document rendered as a page (Swagger UI, served from here)', replies: { 200: { body: 'Text', mediaType: 'text/html', headers: ['Content-Security-Policy'] } } },
  { api: 'backend', method: 'GET', path: '/docs/swagger-ui.css', handler: 'docs', access: 'public', tables: {},
    operationId: 'getDocsStylesheet', tag: 'Documentation', summary: "The docs page's stylesheet", replies: { 200: { body: 'Text', mediaType: 'text/css' } } },
  { api: 'backend', method: 'GET', path: '/docs/swagger-ui-bundle.js', handler: 'docs', access: 'public', tables: {},
    operationId: 'getDocsRenderer', tag: 'Documentation', summary: "The docs page's renderer (Swagger UI)", replies: { 200: { body: 'Text', mediaType: 'text/javascript' } } },
  { api: 'backend', method: 'GET', path: '/docs/init.js', handler: 'docs', access: 'public', tables: {},
    operationId: 'getDocsInitScript', tag: 'Documentation', summary: "The docs page's start-up script", replies: { 200: { body: 'Text', mediaType: 'text/javascript' } } },
  { api: 'backend', method: 'ANY', path: FALLBACK_PATH, handler: 'backend-fallback', access: 'public', tables: {} },
] as const satisfies readonly Route[];

/** The rows with their literal types: what the reply and input types of each handler are read from. */
export type RouteTable = typeof routeTable;

export const routes: readonly Route[] = routeTable;

export const isFallback = (route: Route): route is FallbackRoute => route.method === 'ANY';

/**
 * Whether a row acts in a team (shared/http/admission/team-scope.ts): every versioned-API row but the fallback
 * and those about the caller in no one team. They take `?teamId=` (or the path's `{teamId}`).
 */
export const actsInTeam = (route: Route): route is EndpointRoute =>
  route.api === 'platform' && !isFallback(route) && route.team !== 'none';

/** Every POST of the versioned API may be retried safely with an Idempotency-Key (shared/http/idempotency/idempotent.ts). */
export const takesIdempotencyKey = (route: Route): boolean =>
  route.api === 'platform' && route.method === 'POST';

/** Whether a row's requests carry a JSON body: its handler's body schema, parsed by the chain. */
export const takesBody = (route: Route): boolean => !isFallback(route) && route.request?.body !== undefined;

/** The scopes that allow a row's requests (any one of them): its own, or its method's. */
export const scopesAccepted = (route: EndpointRoute): readonly Scope[] => {
  const scope = route.scope ?? scopeFor(route.method);
  return typeof scope === 'string' ? [scope] : scope;
};

/** The rows of one group that serve a concrete path (everything but the fallback). */
export const endpointsOf = (api: ApiGroup): Route[] =>
  routes.filter((route) => route.api === api && !isFallback(route));

/** Every operation of the document: the rows that are not fallbacks, with their document fields. */
export const operations = (): EndpointRoute[] =>
  routes.filter((route): route is EndpointRoute => !isFallback(route));

export const fallbackOf = (api: ApiGroup): FallbackRoute => {
  const route = routes.find(
    (candidate): candidate is FallbackRoute => candidate.api === api && isFallback(candidate),
  );
  if (!route) throw new Error(`No fallback route for the ${api} API`);
  return route;
};

/** All rows served by one handler (one function): usually one, several for `docs`. */
export const rowsOf = (handler: string): Route[] => routes.filter((route) => route.handler === handler);

/** Each handler once, in table order: one function per entry. */
export const handlers = (): string[] => [...new Set(routes.map((route) => route.handler))];
