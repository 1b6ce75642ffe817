/** A deployment's lifecycle states; a new deployment is `queued`. */
export const DEPLOYMENT_STATES = ['queued', 'building', 'ready', 'error', 'canceled'] as const;

export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];
