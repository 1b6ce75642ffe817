import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { onEachStoreClients } from '#shared/db/client.ts';
import { type AccessRequest, installAccessCheck } from '#shared/runtime/access-check.ts';
import { dynamodbRequests, operationOf } from './dynamodb-requests.ts';
import { allowingPermission } from './policy.ts';
import { runningPrincipal } from './principal.ts';
import { AccessDeniedException } from './refusal.ts';

// Local runs refuse what AWS would: every call a function makes (DynamoDB through the store's
// clients, and the calls that ask shared/runtime/access-check.ts) is checked against the grants of
// the function whose invocation makes it (principal.ts). A refused call throws AWS's own error, which
// the function meets as it would in Lambda: logged like any store error, a 500 to its caller. Each
// permission used, and each refusal, is noted, so a test can compare them with what was granted.

export interface Refusal {
  functionName: string;
  action: string;
  message: string;
}

const used = new Map<string, Set<string>>();
const refusals: Refusal[] = [];

/** Allows the call, noting the permission it used, or throws AccessDeniedException. */
export function mustBeGranted(request: AccessRequest): void {
  const principal = runningPrincipal();
  if (!principal) return;
  const permission = allowingPermission(principal.grants, request);
  if (permission === undefined) {
    const refusal = new AccessDeniedException(principal.name, request);
    refusals.push({ functionName: principal.name, action: request.action, message: refusal.message });
    throw refusal;
  }
  const permissions = used.get(principal.name) ?? new Set<string>();
  permissions.add(permission);
  used.set(principal.name, permissions);
}

/** The permissions each function has used since this process started enforcing. */
export const permissionsUsed = (): ReadonlyMap<string, ReadonlySet<string>> => used;

/** Every call refused since this process started enforcing. */
export const refusedCalls = (): readonly Refusal[] => refusals;

const checkCall = (client: DynamoDBDocumentClient): void => {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = operationOf(context.commandName ?? '');
      for (const request of dynamodbRequests(operation, args.input as Record<string, unknown>))
        mustBeGranted(request);
      return next(args);
    },
    // Before the retries: a refusal is not retried, as the SDK does not retry AccessDeniedException.
    { step: 'initialize', name: 'localIamCheck', priority: 'high' },
  );
};

let enforcing = false;

/** Makes this process refuse what IAM would (once; the gateway calls it when it starts). */
export function enforceGrants(): void {
  if (enforcing) return;
  enforcing = true;
  installAccessCheck(mustBeGranted);
  onEachStoreClients((clients) => {
    checkCall(clients.db);
    checkCall(clients.countingDb);
  });
}
