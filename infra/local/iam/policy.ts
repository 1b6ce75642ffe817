import { type TableKey, tableKeyNamed } from '#shared/db/tables.ts';
import type { AccessRequest } from '#shared/runtime/access-check.ts';
import { type Grant, PLAIN_ONLY_CONDITION } from '../../access/grants.ts';

// IAM's decision for one call, on the grants of infra/access/grants.ts: allowed when some grant names the
// action on that resource and its condition holds; refused otherwise (there are no denies). Each
// grant's action on its resource is one "permission", named the same way for what a function was
// granted and for what it used, so that the two can be compared (test/integration/grants.test.ts).

/** The table a name belongs to: the deployed or local name each function is given. */
export function tableKeyOfName(name: string): TableKey | undefined {
  return tableKeyNamed(name);
}

/** One action on one resource, with its condition: `dynamodb:Query projects/index/byOwner`. */
export function permissionName(action: string, grant: Grant): string {
  switch (grant.service) {
    case 'dynamodb':
      return `${action} ${grant.table}${grant.index === undefined ? '' : `/index/${grant.index}`}`;
    case 'kms':
      return `${action} environment-key${grant.plainOnly ? ` if ${PLAIN_ONLY_CONDITION.key}=${PLAIN_ONLY_CONDITION.value}` : ''}`;
    case 'secretsmanager':
      return `${action} ${grant.secret}`;
    case 'sqs':
      return `${action} ${grant.queue}`;
  }
}

/** Every permission a function's grants hold. */
export const permissionsOf = (grants: readonly Grant[]): Set<string> =>
  new Set(grants.flatMap((grant) => grant.actions.map((action) => permissionName(action, grant))));

function covers(grant: Grant, request: AccessRequest): boolean {
  if (!grant.actions.includes(request.action)) return false;
  const { resource } = request;
  switch (grant.service) {
    case 'dynamodb':
      return (
        resource.service === 'dynamodb' &&
        tableKeyOfName(resource.table) === grant.table &&
        resource.index === grant.index
      );
    case 'kms':
      return (
        resource.service === 'kms' &&
        (!grant.plainOnly || request.conditionKeys?.[PLAIN_ONLY_CONDITION.key] === PLAIN_ONLY_CONDITION.value)
      );
    case 'secretsmanager':
      return resource.service === 'secretsmanager' && resource.secret === grant.secret;
    case 'sqs':
      return resource.service === 'sqs' && resource.queue === grant.queue;
  }
}

/** The permission that allows the request, or undefined when IAM would refuse it. */
export function allowingPermission(grants: readonly Grant[], request: AccessRequest): string | undefined {
  const covering = grants.filter((candidate) => covers(candidate, request));
  // The narrowest grant that allows it is the one it used: a conditional one before a general one.
  const grant =
    covering.find((candidate) => candidate.service === 'kms' && candidate.plainOnly) ?? covering[0];
  return grant && permissionName(request.action, grant);
}
