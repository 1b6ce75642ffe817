import { every } from '#infra/local/every.ts';
import { outsideAnyRequest, requestDeadline, withDeadline } from '#shared/runtime/deadline.ts';

// Work a request sets going for later (a webhook retry's timer, a poller's loop) must not inherit
// that request's deadline, which would abort it once the request's time is up (issue 22, item 2).

const later = <T>(ms: number, value: () => T): Promise<T> =>
  new Promise((resolve) => setTimeout(() => resolve(value()), ms));

describe('background work started inside a request', () => {
  it('inherits the deadline with a plain timer (the failure this guards against)', async () => {
    const seen = await withDeadline(10, () => later(30, () => requestDeadline()?.aborted));
    expect(seen).toBe(true);
  });

  it('runs without a deadline when started through outsideAnyRequest', async () => {
    const seen = await withDeadline(10, () => outsideAnyRequest(() => later(30, () => requestDeadline())));
    expect(seen).toBeUndefined();
  });

  it('runs every round of a loop without a deadline', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const loop = await withDeadline(10, async () => every(5, async () => void seen.push(requestDeadline())));
    await later(60, () => undefined);
    await loop.stop();
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((signal) => signal === undefined)).toBe(true);
  });
});

describe('a deadline set around a request', () => {
  it("still holds inside the request's own, longer one (the local gateway's, counted from arrival)", async () => {
    const seen = await withDeadline(20, () =>
      withDeadline(10_000, () => later(60, () => requestDeadline()?.aborted)),
    );
    expect(seen).toBe(true);
  });
});
