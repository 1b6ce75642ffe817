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
}

/** Follows a deployment's build until it is terminal; its final status. */
export async function followBuild(
  api: PlatformClient,
  id: string,
  options: FollowBuildOptions,
): Promise<Status> {
  const { since, timeoutMs, print } = options;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  let status: string = 'unknown';
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
  }
  // follow ends only after the end event: reaching here means the SDK broke that promise.
  throw new Error(`The build log of ${id} ended without saying how the deployment ended`);
}
