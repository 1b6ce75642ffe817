import type { FollowEvent, PlatformClient } from '@platform-api/client';
import { CliError } from './flags.ts';

// A build followed as it happens, through the SDK's `deployments.follow` (which reconnects by itself
// and gives every line once): `deploy --wait` and `logs --follow` both print from here.

type Status = Extract<FollowEvent, { type: 'end' }>['status'];
type LogLine = Extract<FollowEvent, { type: 'log' }>;

/** A log line as printed: its time, `ERR ` for stderr, its text. */
export const logLine = (line: Omit<LogLine, 'type'>): string =>
  `${line.at}  ${line.stream === 'stderr' ? 'ERR ' : ''}${line.text}`;

/** An event of the stream as printed: a line, or a status with when the deployment entered it. */
export const eventLine = (event: FollowEvent): string =>
  event.type === 'log' ? logLine(event) : `${'at' in event ? event.at : ''}  ${event.status}`;

export interface FollowBuildOptions {
  /** Start after this line. */
  since?: number;
  /** Give up after this long: a `timeout` error (exit code 1) naming the status it was in. */
  timeoutMs?: number;
  /** Called with every event before the end, as it comes. */
  print(event: Exclude<FollowEvent, { type: 'end' }>): void;
  /** Told once, `stillQueued.afterMs` after the start, if no builder has taken the deployment by then. */
  stillQueued?: { afterMs: number; tell(line: string): void };
}

/**
 * How long a wait lets a deployment sit `queued` before saying that nothing builds it:
 * PLATFORM_QUEUED_NOTICE (like 10s, 500ms; 0 never), 10 s unless set.
 */
export function queuedNoticeMs(env: Record<string, string | undefined>): number {
  const text = env.PLATFORM_QUEUED_NOTICE ?? '10s';
  const match = /^(\d+)(ms|s|m)?$/.exec(text);
  if (!match)
    throw new CliError('usage_error', `PLATFORM_QUEUED_NOTICE must be like 10s or 500ms, not ${text}`);
  return Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000 }[match[2] ?? 's'] ?? 1000);
}

/** What a wait says once a deployment has stayed queued that long. */
export const stillQueuedLine = (id: string, afterMs: number): string =>
  `Deployment ${id} is still queued after ${afterMs / 1000} s: no builder has picked it up. Builds are run by the platform's builder; locally, by npm start's (on unless it was started with LOCAL_BUILDER=0).`;

/** Follows a deployment's build until it is terminal; its final status. */
export async function followBuild(
  api: PlatformClient,
  id: string,
  options: FollowBuildOptions,
): Promise<Status> {
  const { since, timeoutMs, print, stillQueued } = options;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  let status: string = 'unknown';
  const notice =
    stillQueued && stillQueued.afterMs > 0
      ? setTimeout(() => {
          if (status === 'queued') stillQueued.tell(stillQueuedLine(id, stillQueued.afterMs));
        }, stillQueued.afterMs)
      : undefined;
  try {
    for await (const event of api.deployments.follow(id, {
      ...(since ? { since } : {}),
      ...(signal ? { signal } : {}),
    })) {
      if (event.type === 'end') return event.status;
      if (event.type === 'status') status = event.status;
      print(event);
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
    throw new CliError(
      'timeout',
      `Deployment ${id} is still ${status} after ${(timeoutMs ?? 0) / 1000} s`,
      1,
    );
  } finally {
    clearTimeout(notice);
  }
  // follow ends only after the end event: reaching here means the SDK broke that promise.
  throw new Error(`The build log of ${id} ended without saying how the deployment ended`);
}
