import { type Deployment, findDeployment } from '#shared/db/deployments/deployments.ts';
import { holdPlace } from '#shared/domain/held-requests.ts';
import { reaches } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import { DEPLOYMENT_STATES, type DeploymentState, isTerminal } from '#shared/model/deployments/states.ts';
import { NotFoundError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { clock } from '#shared/runtime/clock.ts';

// Waiting for a deployment to reach a state: a long poll of its item. One consistent GetItem at the
// start, then one every POLL_MS until it is in a state waited for or the time is up; so a wait costs
// at most 1000 / POLL_MS reads a second (2: two read units a second for an item under 4 KB), whatever
// the number of deployments, and sees a change at most POLL_MS (plus one read) after it was written.
// A DynamoDB stream pushing the change would need a connection registry and a fan-out to find the
// waiting container; at two reads a second per waiting client, polling is cheaper until thousands
// wait at once. A wait that does not end at once holds one of the caller's places for held-open
// requests (shared/domain/held-requests.ts) until it answers.

export const POLL_MS = 500;

const TERMINAL_STATES = DEPLOYMENT_STATES.filter(isTerminal);

const isDeploymentId = (id: string): boolean => isIdOf('dpl', id);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOutcome {
  deployment: Deployment;
  reached: boolean;
}

/**
 * Waits until one of the caller's deployments is in one of `statuses` (any terminal state by
 * default), at most `timeoutSeconds`: the deployment as it is then, and whether it got there.
 */
export async function waitForDeployment(
  caller: Caller,
  id: string,
  wanted: { statuses?: readonly DeploymentState[]; timeoutSeconds: number },
  pollMs = POLL_MS,
): Promise<WaitOutcome> {
  const statuses = wanted.statuses ?? TERMINAL_STATES;
  const until = clock.now() + wanted.timeoutSeconds * 1000;
  const read = async () => {
    const deployment = isDeploymentId(id)
      ? await findDeployment(caller.team.partition, id, { consistent: true })
      : undefined;
    if (!deployment || !reaches(caller, deployment.projectId)) {
      throw new NotFoundError(`Deployment ${id} was not found`);
    }
    return deployment;
  };
  const first = await read();
  if (statuses.includes(first.status)) return { deployment: first, reached: true };
  const place = await holdPlace(caller);
  try {
    for (let deployment = first; ; deployment = await read()) {
      if (statuses.includes(deployment.status)) return { deployment, reached: true };
      const left = until - clock.now();
      if (left <= 0) return { deployment, reached: false };
      await sleep(Math.min(pollMs, left));
    }
  } finally {
    await place.release();
  }
}
