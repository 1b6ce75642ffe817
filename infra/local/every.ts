import { outsideAnyRequest } from '#shared/runtime/deadline.ts';

/** A loop that stops cleanly: `stop` resolves once the round under way is over. */
export interface Repeating {
  stop(): Promise<void>;
}

/**
 * Runs `round` every `intervalMs`, one at a time: the next starts that long after the last ended,
 * so a slow store never piles rounds up. A round catches its own failures (the local store may be
 * restarting: the next round tries again). The rounds run outside any request's deadline, whoever
 * started the loop.
 */
export function every(intervalMs: number, round: () => Promise<void>): Repeating {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = outsideAnyRequest(() =>
      setTimeout(() => {
        current = round().finally(() => {
          if (!stopped) schedule();
        });
      }, intervalMs),
    );
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
