/**
 * At most `size` invocations run at once; the rest wait their turn in arrival order. In Lambda each
 * request has a container to itself; here one process serves them all, and a request's timers (the
 * function's time, the store client's) start when it is invoked, as they do in Lambda, not while it
 * waits behind a burst.
 *
 * What does count from arrival is the request's deadline (`timeUp`): a client is owed an answer
 * within it whatever the queue in front of it. A request still waiting when its time is up leaves the
 * queue and is invoked at once, outside the slots, with no time left: its first store call is cut
 * off and the chain answers its own 500 (or health its 503), so no slot is spent on an answer that
 * is already due.
 */
export function invocationSlots(
  size: number,
): <T>(invoke: () => Promise<T>, timeUp?: AbortSignal) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  /** Waits for a slot: true once it has one, false when `timeUp` came first (it then holds none). */
  const slot = (timeUp: AbortSignal | undefined): Promise<boolean> => {
    if (running < size) {
      running++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const start = () => {
        timeUp?.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = () => {
        const index = waiting.indexOf(start);
        if (index >= 0) waiting.splice(index, 1);
        resolve(false);
      };
      if (timeUp?.aborted) return resolve(false);
      waiting.push(start);
      timeUp?.addEventListener('abort', leave, { once: true });
    });
  };

  return async (invoke, timeUp) => {
    if (!(await slot(timeUp))) return invoke();
    try {
      return await invoke();
    } finally {
      release();
    }
  };
}
