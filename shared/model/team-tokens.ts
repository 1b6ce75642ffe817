import type { DeploymentTarget } from '#shared/model/deployments/target.ts';
import type { Permission } from './roles.ts';

// Team tokens: keys that act as a team, not as a person, for CI. They hold an admin's permissions in
// their team, less everything about who is in it (a leaked CI token must not be able to add its
// holder, or mint more tokens), and within the projects and targets they were made for.

/** What a team token may never do, whatever its scopes. */
export const NEVER_BY_TOKENS: readonly Permission[] = [
  'team.update',
  'team.delete',
  'members.write',
  'invitations.manage',
  'tokens.manage',
  'owners.write',
  'audit.read',
];

/** A team token's limits beyond its scopes. */
export interface TokenLimits {
  /** The projects it reaches; every project of the team when absent. */
  projectIds?: readonly string[];
  targets: readonly DeploymentTarget[];
}

export const MAX_TOKEN_DAYS = 365;
export const MAX_TOKEN_PROJECTS = 100;
