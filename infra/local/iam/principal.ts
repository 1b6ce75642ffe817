import { AsyncLocalStorage } from 'node:async_hooks';
import { functionGrants, type Grant } from '../../access/grants.ts';

// Which function is running: what Lambda knows from the container a call comes from, and the local
// run, where every function shares one process, from the invocation it is in. The gateway, the stream
// poller and the queue run each invocation inside `runAs`; a call made outside one is the local run's
// own (creating tables, seeding the admin, a test's setup), as an operator's would be, and is not checked.

export interface Principal {
  /** The function: `functions/<name>.ts`, named as its role would be. */
  name: string;
  grants: readonly Grant[];
}

const current = new AsyncLocalStorage<Principal>();
const principals = new Map<string, Principal>();

/** The principal of a route's or consumer's function, its grants from the one source (infra/access/grants.ts). */
export function principalOf(handler: string): Principal {
  let principal = principals.get(handler);
  if (!principal) {
    principal = { name: handler, grants: functionGrants(handler) };
    principals.set(handler, principal);
  }
  return principal;
}

/**
 * Runs one invocation as `handler`'s function (or as the principal given: a test's narrowed one):
 * every AWS call it makes is checked against its grants.
 */
export const runAs = <T>(who: string | Principal, invocation: () => T): T =>
  current.run(typeof who === 'string' ? principalOf(who) : who, invocation);

/** The function whose invocation is running, if any. */
export const runningPrincipal = (): Principal | undefined => current.getStore();
