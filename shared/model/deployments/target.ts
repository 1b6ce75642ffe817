import type { EnvironmentTarget } from '#shared/model/environment-variables.ts';

// Where a deployment goes, which decides the environment variables it builds with. Until
// deployments name their target (explicit targets come later), the branch decides.

/** The targets a deployment can have: `development` values are for local work only. */
export type DeploymentTarget = Exclude<EnvironmentTarget, 'development'>;

export const DEPLOYMENT_TARGETS = ['production', 'preview'] as const satisfies readonly DeploymentTarget[];

/** `production` when the deployment's branch is the project's production branch, else `preview`. */
export const deploymentTarget = (branch: string, productionBranch: string): DeploymentTarget =>
  branch === productionBranch ? 'production' : 'preview';
