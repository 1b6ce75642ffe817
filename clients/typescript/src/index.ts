// @platform-api/client: a typed client of the platform API, on fetch alone.
export { type ClientOptions, PlatformClient, type RetryInfo } from './client.ts';
export * from './errors.ts';
export type { FollowEvent, FollowOptions } from './follow.ts';
export type { components, operations, paths } from './generated/openapi.ts';
export type { Groups, OperationRow, WebhookEvent } from './generated/operations.ts';
export { operationTable } from './generated/operations.ts';
export type {
  Body,
  ItemOf,
  JsonReply,
  List,
  OperationId,
  Query,
  RequestOptions,
  TeamRequestOptions,
} from './types.ts';
export { verifyWebhook, type WebhookHeaders, WebhookVerificationError } from './webhooks.ts';

import type { components } from './generated/openapi.ts';
/** The document's named schemas: `Schemas['Project']`, `Schemas['Deployment']`, ... */
export type Schemas = components['schemas'];
