import { type ScheduledConsumer, scheduledConsumers } from '#shared/consumers.ts';
import { logError } from '#shared/runtime/log.ts';
import { handlerEntry } from '../handler-entries.ts';
import { every, type Repeating } from './every.ts';
import { runAs } from './iam/principal.ts';

// The local stand-in for the EventBridge rules that invoke the scheduled functions
// (shared/consumers.ts): each runs on a period of its own here, a minute unless
// DOMAIN_RECHECK_INTERVAL_MS says otherwise (tests shorten it), as its function with its grants
// (infra/local/iam). A run that fails is logged, and the next one comes as usual.

/** The local period of the scheduled functions when none is set: their rules' one minute. */
export const DEFAULT_SCHEDULE_INTERVAL_MS = 60_000;

export interface LocalScheduleOptions {
  intervalMs?: number;
  schedules?: readonly ScheduledConsumer[];
}

/** The period from DOMAIN_RECHECK_INTERVAL_MS, else the default. */
export function scheduleIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.DOMAIN_RECHECK_INTERVAL_MS;
  if (value === undefined || value === '') return DEFAULT_SCHEDULE_INTERVAL_MS;
  if (!/^[1-9][0-9]{0,8}$/.test(value))
    throw new Error('DOMAIN_RECHECK_INTERVAL_MS must be a positive whole number');
  return Number(value);
}

/** Starts running every scheduled function on its local period; `stop` ends them after their runs. */
export async function startLocalSchedules(options: LocalScheduleOptions = {}): Promise<Repeating> {
  const intervalMs = options.intervalMs ?? scheduleIntervalMs();
  const loops: Repeating[] = [];
  for (const schedule of options.schedules ?? scheduledConsumers) {
    const module: { handler: () => Promise<unknown> } = await import(handlerEntry(schedule.handler));
    loops.push(
      every(intervalMs, async () => {
        try {
          await runAs(schedule.handler, () => module.handler());
        } catch (error) {
          logError('local schedule: run failed', { handler: schedule.handler }, error);
        }
      }),
    );
  }
  return { stop: async () => void (await Promise.all(loops.map((loop) => loop.stop()))) };
}
