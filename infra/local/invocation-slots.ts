/**
 * At most `size` invocations run at once; the rest wait their turn in arrival order. In Lambda each
 * request has a container to itself; here one process serves them all, and a request's timers (the
 * function's time, its deadline, the store client's) must start when it is invoked, as they do in
 * Lambda, not while it waits behind a burst.
 */
export function invocationSlots(size: number): <T>(invoke: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return async (invoke) => {
    if (running < size) running++;
    else await new Promise<void>((start) => waiting.push(start));
    try {
      return await invoke();
    } finally {
      release();
    }
  };
}
