/** A deployment's lifecycle states; a new deployment is `queued`. */
export const DEPLOYMENT_STATES = ['queued', 'building', 'ready', 'error', 'canceled'] as const;

export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

/**
 * The lifecycle, declared once: each state and the states it may move to. Terminal states allow
 * none. Every change is one conditional write on the current status (shared/db/deployments/writes.ts), so
 * of two racing reports only one can move a deployment out of a state.
 */
export const TRANSITIONS = {
  queued: ['building', 'canceled'],
  building: ['ready', 'error', 'canceled'],
  ready: [],
  error: [],
  canceled: [],
} as const satisfies Record<DeploymentState, readonly DeploymentState[]>;

/** The states a report may move a deployment to: every state some other state leads to. */
export const REPORTABLE_STATES = ['building', 'ready', 'error', 'canceled'] as const;

export type ReportableState = (typeof REPORTABLE_STATES)[number];

/** The states a deployment may be in for it to move to `to`. */
export const predecessorsOf = (to: DeploymentState): DeploymentState[] =>
  DEPLOYMENT_STATES.filter((from) => (TRANSITIONS[from] as readonly DeploymentState[]).includes(to));

export const isTerminal = (state: DeploymentState): boolean => TRANSITIONS[state].length === 0;

/** The attribute that records when a deployment entered a state (`createdAt` for `queued`). */
export const ENTERED_AT = {
  building: 'buildingAt',
  ready: 'readyAt',
  error: 'erroredAt',
  canceled: 'canceledAt',
} as const satisfies Record<ReportableState, string>;
