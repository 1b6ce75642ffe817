import { outsideAnyRequest } from '#shared/runtime/deadline.ts';

/** A loop that stops cleanly: `stop` resolves once the round under way is over. */
export interface Repeating {
  stop(): Promise<void>;
  /** Starts a round at once, or right after the one under way, instead of at the next interval. */
  wake(): void;
}

/**
 * Runs `round` every `intervalMs`, one at a time: the next starts that long after the last ended,
 * so a slow store never piles rounds up. A round catches its own failures (the local store may be
 * restarting: the next round tries again). The rounds run outside any request's deadline, whoever
 * started the loop or woke it.
 */
export function every(intervalMs: number, round: () => Promise<void>): Repeating {
  let stopped = false;
  let running = false;
  let woken = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    running = true;
    woken = false;
    current = round().finally(() => {
      running = false;
      if (!stopped) schedule(woken ? 0 : intervalMs);
    });
  };
  const schedule = (delayMs: number) => {
    clearTimeout(timer);
    timer = outsideAnyRequest(() => setTimeout(start, delayMs));
  };
  schedule(intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
    wake: () => {
      if (stopped) return;
      if (running) woken = true;
      else schedule(0);
    },
  };
}
