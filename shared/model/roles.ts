// Team roles and what each may do: the one matrix the checks read (shared/http/admission/team-scope.ts, the
// domain's target rules) and `GET /v1/roles` returns as data, so clients never hard-code a list
// that drifts. Each role holds what the one before it holds.

export const TEAM_ROLES = ['viewer', 'developer', 'admin', 'owner'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** What each role adds to the one before it, as `resource.verb` permissions. */
const ADDED_BY = {
  viewer: [
    'team.read',
    'members.read',
    'projects.read',
    'deployments.read',
    'logs.read',
    'variables.read',
    'production.read',
    'webhooks.read',
    'domains.read',
  ],
  developer: ['projects.write', 'deployments.write', 'deployments.build', 'variables.write'],
  admin: [
    'production.write',
    'variables.write_production',
    'projects.delete',
    'webhooks.write',
    'domains.write',
    'invitations.manage',
    'members.write',
    'tokens.manage',
    'audit.read',
    'team.update',
  ],
  owner: ['owners.write', 'team.delete'],
} as const satisfies Record<TeamRole, readonly string[]>;

export type Permission = (typeof ADDED_BY)[TeamRole][number];

const rank = (role: TeamRole): number => TEAM_ROLES.indexOf(role);

/** Every permission a role holds, its own and those of the roles below it. */
export const permissionsOf = (role: TeamRole): Permission[] =>
  TEAM_ROLES.slice(0, rank(role) + 1).flatMap((held) => [...ADDED_BY[held]]);

/** The lowest role that holds a permission: what a refusal names. */
export const lowestRoleWith = (permission: Permission): TeamRole =>
  TEAM_ROLES.find((role) => (ADDED_BY[role] as readonly string[]).includes(permission)) ?? 'owner';

export const roleAllows = (role: TeamRole, permission: Permission): boolean =>
  rank(role) >= rank(lowestRoleWith(permission));

/** Whether `role` is at most `ceiling`: an invitation or a role change grants no more than its maker holds. */
export const isAtMost = (role: TeamRole, ceiling: TeamRole): boolean => rank(role) <= rank(ceiling);

export const isTeamRole = (value: unknown): value is TeamRole =>
  typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);

/** The matrix as `GET /v1/roles` returns it, lowest role first. */
export const roleMatrix = (): { name: TeamRole; permissions: Permission[] }[] =>
  TEAM_ROLES.map((name) => ({ name, permissions: permissionsOf(name) }));
