import type { DeclaredIndexes, TableKey } from '#shared/db/tables.ts';
import type { AuditAction } from '#shared/model/audit.ts';
import type { ErrorCode } from '#shared/model/error-catalogue.ts';
import type { Permission } from '#shared/model/roles.ts';
import type { Scope } from '#shared/model/scopes.ts';
import type { SecretName } from '#shared/runtime/secrets.ts';
import type { RequestSchemaName } from '#shared/schemas/requests.ts';
import type { ResponseBodyName } from '#shared/schemas/responses.ts';

// What a row of the route table (routes.ts) says: where it is served, what it may touch, and what
// the document says of it. The table imports these; so do the stack, the chain and the document.

export type ApiGroup = 'platform' | 'backend';

/**
 * Each group's API Gateway stage: the platform API's makes `{base_url}` end in `/v1`. The stack names
 * its stages by these, and the local gateway routes `/v1/...` by them.
 */
export const stageNames = { platform: 'v1', backend: 'live' } as const satisfies Record<ApiGroup, string>;

/**
 * - `apiKey`: `Authorization: Bearer <key>` required; rate limited per key (per source address
 *   while no valid key is shown).
 * - `authThrottled`: no key; rate limited per source address (the /auth/* endpoints).
 * - `public`: no key, no rate limit (health checks, the document and its page).
 */
export type Access = 'apiKey' | 'authThrottled' | 'public';

/**
 * A DynamoDB action a function may call on a table, as IAM names it (without `dynamodb:`); `Query:<index>`
 * queries one of the table's declared indexes (IAM grants an index apart from its table). A
 * transaction needs the action of each of its items (a Put in one is PutItem). Exactly what the code
 * calls: test/integration/exact-grants.test.ts fails on one more or one fewer.
 */
export type TableAction<K extends TableKey = TableKey> =
  | 'GetItem'
  | 'BatchGetItem'
  | 'BatchWriteItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  // Distributed over K: the bare `TableAction` is any table's action, index queries included.
  | (K extends TableKey ? `Query:${keyof DeclaredIndexes[K] & string}` : never);

/** The actions a function may call, table by table. */
export type TableGrants = { readonly [K in TableKey]?: readonly TableAction<K>[] };

/**
 * What a function may do with the stack's KMS key (infra/access/environment-key.ts), which seals environment
 * variables: `encrypt` makes data keys (GenerateDataKey); `decryptPlain` opens those of `plain`
 * variables only (Decrypt, on the condition that the encryption context says `type: plain`, which KMS
 * checks cryptographically); `decrypt` opens any (the build's read alone).
 */
export type KmsUse = 'encrypt' | 'decryptPlain' | 'decrypt';

/** Queues a function may send to (infra/consumers/webhooks.ts grants SendMessage on exactly these). */
export type QueueKey = 'webhookDeliveries';

/** Media types a reply may have besides JSON (the docs page and its files); sent with charset=utf-8. */
export type TextMediaType = 'text/html' | 'text/css' | 'text/javascript';

/** Headers that a reply carries because of what it is (the chain adds X-Request-Id and the rate-limit ones). */
export type ReplyHeader = 'Location' | 'Content-Security-Policy' | 'Wait-Result';

/**
 * A reply's body by name (JSON), or with its media type and the headers it always carries; `null`
 * for a reply without a body (204). `events` names the description of the text/event-stream the same
 * status answers instead when the client asks for one (the row then `streams`).
 */
export type ReplySpec =
  | ResponseBodyName
  | {
      body: ResponseBodyName;
      mediaType?: TextMediaType;
      headers?: readonly ReplyHeader[];
      events?: ResponseBodyName;
    }
  | null;

/**
 * What a function may call besides writing its own logs: the stack grants exactly this (its IAM
 * policy, infra/access/grants.ts), and local runs refuse anything else the way IAM would (infra/local/iam).
 * Route rows and consumers (shared/consumers.ts) declare it alike.
 */
export interface FunctionAccess {
  /** Tables the function may touch, and with which calls. */
  tables: TableGrants;
  /** Secrets the function reads (shared/runtime/secrets.ts), by ARN. */
  secrets?: readonly SecretName[];
  /** Queues the function sends to. */
  queues?: readonly QueueKey[];
  /** What it may do with the KMS key that seals environment variables; nothing when absent. */
  kms?: readonly KmsUse[];
}

interface RouteRow extends FunctionAccess {
  api: ApiGroup;
  /** API Gateway resource path, relative to the group's root (the platform group's stage is `v1`). */
  path: string;
  /** The Lambda entry point: `functions/<feature>/<handler>.ts`. Rows that share one are served by one function. */
  handler: string;
  access: Access;
  /** Lambda memory; CPU scales with it, so password hashing gets more. */
  memoryMb?: number;
  /**
   * How long the handler may hold a request open by design (a wait for a change), beyond its
   * ordinary work: its request deadline and its function's timeout grow by this much
   * (shared/runtime/function-settings.ts), and the local gateway gives it as long, outside the
   * invocation slots (it mostly sleeps).
   */
  holdsOpenSeconds?: number;
  /**
   * Answers through Lambda response streaming (API Gateway's `responseTransferMode: STREAM`): the
   * function writes as it goes (an event stream) for up to Lambda's 15 minutes, its timeout; the local
   * gateway streams it the same way (infra/local/lambda-streaming.ts). Its entry point is built with
   * shared/http/answers/streaming.ts.
   */
  streams?: boolean;
}

/** A row that serves one operation of the OpenAPI document. */
export interface EndpointRoute extends RouteRow {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * The key scope the request needs (shared/model/scopes.ts), when it is not the method's: logout
   * is a POST, yet a read-only key may end itself; a deployment's events are reported with `write`
   * or `build`. With several, any one of them will do.
   */
  scope?: Scope | readonly Scope[];
  /**
   * What the caller's role in the team must allow (shared/model/roles.ts), checked with the key's
   * scopes: a request may do what both allow. None on rows whose target is the caller's own (keys).
   */
  permission?: Permission;
  /**
   * Where a versioned-API row's team is named: `?teamId=` (absent: the caller's personal team),
   * the path's `{teamId}` on a team's own routes (`path`), or nowhere, on rows about the caller and
   * no one team (`none`: their teams, accepting an invitation, the roles).
   */
  team?: 'path' | 'none';
  /**
   * `withResource`: the domain reads the caller's membership in the same call as the resource
   * (shared/db/teams/with-membership.ts), instead of the chain reading it first: the hot paths that keep
   * a request in a shared team at the cost of one in a personal team.
   */
  membership?: 'withResource';
  /**
   * The change a 2xx of this row is, as the team's audit log records it (shared/model/audit.ts):
   * every row that changes something in a team names one, and so does the build's read of its
   * variables. The chain opens it before the handler (shared/http/audit-trail.ts); the write of the
   * item it names carries it (shared/db/audit/stamp.ts).
   */
  audit?: AuditAction;
  /**
   * `refused`: a user's request, which a team token may not make (its keys, its teams, accepting an
   * invitation): 403. A token acts as its team, not as a person.
   */
  tokens?: 'refused';
  /** camelCase, unique: the document's operationId, which generated clients name their methods after. */
  operationId: string;
  /** The document's tag: the section the operation is listed under. */
  tag: string;
  summary: string;
  /** The zod schemas of its input, by name; the function passes the same schemas to its endpoint. */
  request?: {
    params?: RequestSchemaName;
    query?: RequestSchemaName;
    body?: RequestSchemaName;
    /** Request headers the operation reads (besides Authorization and Accept), by exact name. */
    headers?: RequestSchemaName;
  };
  /** What the handler replies, by status; its reply is typed from this. */
  replies: { readonly [status: number]: ReplySpec };
  /**
   * Errors its domain code may throw. Those the chain gives every row of its kind (400 for input,
   * 413 and 415 for a body, 401 and 429 for a key, 429 for the /auth/* throttle, 500) are added
   * by the document, not listed here.
   */
  errors?: readonly ErrorCode[];
}

/** A group's catch-all: 404 or 405 for everything no other row serves. Not an operation. */
export interface FallbackRoute extends RouteRow {
  method: 'ANY';
  operationId?: undefined;
  scope?: undefined;
}

export type Route = EndpointRoute | FallbackRoute;
