import { type Deployment, findDeployment } from '#shared/db/deployments/deployments.ts';
import { readLines, type StoredLine } from '#shared/db/deployments/logs.ts';
import { type HeldPlace, holdPlace } from '#shared/domain/held-requests.ts';
import { reaches } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import { type DeploymentState, ENTERED_AT, isTerminal } from '#shared/model/deployments/states.ts';
import { NotFoundError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { outsideAnyRequest, withDeadline } from '#shared/runtime/deadline.ts';
import { logError } from '#shared/runtime/log.ts';

// Following a deployment's build log: the stored lines after a point, then new ones as they come,
// the deployment's status on connect and each new one a round sees (one held for less than a round
// may go unsent; its history, GET /deployments/{id}/events, has every one), and the end once it is
// terminal and every line has been sent. Each round reads the deployment, then the lines after the
// last one sent (both consistent): two reads a round, one round per `pollMs`.
//
// Each round reads the lines first, then, if the deployment read before them (at the end of the
// previous round) changed status, sends the change.
// Why a round that saw a terminal status may end the stream after its read of lines: an append is
// one transaction conditional on the deployment being queued or building (shared/db/deployments/logs.ts),
// so once a read sees it terminal no line can be added, and the lines read after that are all there
// are. Lines commit in the order of their numbers, so reading "after the last one sent" never skips
// one that lands late.
//
// A stream holds one of the caller's places for held-open requests (shared/domain/held-requests.ts)
// from its start to its end, whatever ends it: its time, the deployment's end, a failed read, or the
// reader going away (`stop`, which also cuts short the sleep between rounds, so the place is given
// back at once rather than at the next write). A place whose lease was lost ends the stream as if its
// time were up.
//
// Events are plain data here; shared/http/answers/event-stream.ts writes them as text/event-stream.

export type FollowEvent =
  | { type: 'log'; line: StoredLine }
  | { type: 'status'; status: DeploymentState; at: string }
  | { type: 'end'; status: DeploymentState }
  /** The stream's time is up: reconnect with Last-Event-ID (the last line's number) to go on. */
  | { type: 'reconnect'; lastEventId: number }
  /** Nothing happened for `keepaliveMs`: something to write so that idle connections stay open. */
  | { type: 'keepalive' };

export interface FollowSettings {
  pollMs: number;
  keepaliveMs: number;
  /** How long one stream lasts before it ends itself with a `reconnect`. */
  lifetimeMs: number;
  /** Each round's reads get this long (a fresh deadline per round: the stream outlives any one). */
  roundDeadlineMs: number;
}

/** Lines read at a time while catching up. */
const LINES_PER_READ = 100;

const isDeploymentId = (id: string): boolean => isIdOf('dpl', id);
const notFound = (id: string) => new NotFoundError(`Deployment ${id} was not found`);
/** Sleeps `ms`, or less if `stop` aborts first. */
const sleep = (ms: number, stop?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (stop?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    }
    stop?.addEventListener('abort', done, { once: true });
  });

/** When the deployment entered its current status. */
const enteredAt = (deployment: Deployment): string =>
  deployment.status === 'queued'
    ? deployment.createdAt
    : (deployment[ENTERED_AT[deployment.status]] ?? deployment.updatedAt);

/**
 * Starts following one of the caller's deployments' logs after line `after` (404 at once for anyone
 * else's); the events, for as long as the stream lasts. Stopping the iteration stops the reads.
 */
export async function followDeploymentLogs(
  caller: Caller,
  id: string,
  after: number,
  settings: FollowSettings,
  stop?: AbortSignal,
): Promise<AsyncGenerator<FollowEvent>> {
  const first = isDeploymentId(id)
    ? await findDeployment(caller.team.partition, id, { consistent: true })
    : undefined;
  if (!first || !reaches(caller, first.projectId)) throw notFound(id);
  const place = await holdPlace(caller);
  // Reads of later rounds run outside the request's deadline, each under one of its own.
  const inRound = <T>(read: () => Promise<T>): Promise<T> =>
    outsideAnyRequest(() => withDeadline(settings.roundDeadlineMs, read));
  return held(
    place,
    events(first, after, settings, stop, place, {
      deployment: () => inRound(() => findDeployment(caller.team.partition, id, { consistent: true })),
      lines: (from: number) => inRound(() => readLines(id, from, LINES_PER_READ)),
    }),
  );
}

/** The events, with the place given back when they end, however they end. */
async function* held(place: HeldPlace, events: AsyncGenerator<FollowEvent>): AsyncGenerator<FollowEvent> {
  try {
    yield* events;
  } finally {
    await place.release();
  }
}

interface Reads {
  deployment: () => Promise<Deployment | undefined>;
  lines: (after: number) => Promise<{ lines: StoredLine[]; more: boolean }>;
}

async function* events(
  first: Deployment,
  after: number,
  settings: FollowSettings,
  stop: AbortSignal | undefined,
  place: HeldPlace,
  read: Reads,
): AsyncGenerator<FollowEvent> {
  const startedAt = performance.now();
  let lastEventAt = startedAt;
  let sent = after;
  // The status on connect comes first, unless it is terminal; every change, and a terminal status on
  // connect, is sent after the lines of its round, so that a terminal status (and the end) always
  // follows the last line, also on a reconnect that finds the build already over.
  let status: Deployment['status'] | undefined;
  if (!isTerminal(first.status)) {
    status = first.status;
    yield { type: 'status', status, at: enteredAt(first) };
  }
  for (let deployment: Deployment | undefined = first; ; ) {
    // Deleted meanwhile (its project was): nothing more will come.
    if (!deployment) return;
    try {
      for (let more = true; more; ) {
        const page = await read.lines(sent);
        for (const line of page.lines) {
          yield { type: 'log', line };
          sent = line.seq;
          lastEventAt = performance.now();
        }
        more = page.more;
      }
    } catch (error) {
      yield* failed(error, sent);
      return;
    }
    if (deployment.status !== status) {
      status = deployment.status;
      yield { type: 'status', status, at: enteredAt(deployment) };
      lastEventAt = performance.now();
    }
    if (isTerminal(status)) {
      yield { type: 'end', status };
      return;
    }
    const now = performance.now();
    if (now - startedAt + settings.pollMs >= settings.lifetimeMs || place.lost) {
      yield { type: 'reconnect', lastEventId: sent };
      return;
    }
    if (now - lastEventAt >= settings.keepaliveMs) {
      yield { type: 'keepalive' };
      lastEventAt = now;
    }
    await sleep(settings.pollMs, stop);
    // The reader is gone: nothing more to write, and the place goes back now.
    if (stop?.aborted) return;
    try {
      deployment = await read.deployment();
    } catch (error) {
      yield* failed(error, sent);
      return;
    }
  }
}

/**
 * A read that failed (the store did not answer within the round's deadline): the stream ends as if
 * its time were up, so the client reconnects after the last line it got, and loses nothing.
 */
async function* failed(error: unknown, sent: number): AsyncGenerator<FollowEvent> {
  logError('log stream: a read failed; asking the client to reconnect', { lastEventId: sent }, error);
  yield { type: 'reconnect', lastEventId: sent };
}
