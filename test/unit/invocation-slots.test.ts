import { invocationSlots } from '#infra/local/invocation-slots.ts';

// The local gateway's slots: at most `size` invocations at once, the rest in arrival order; one still
// waiting when its time is up leaves the queue and runs at once, outside the slots (issue 22, item 5).

const gate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

describe('invocationSlots', () => {
  it('runs one at a time with one slot, in arrival order', async () => {
    const invoke = invocationSlots(1);
    const first = gate();
    const order: string[] = [];
    const a = invoke(async () => {
      await first.opened;
      order.push('a');
    });
    const b = invoke(async () => void order.push('b'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    first.open();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
  });

  it('runs a queued invocation at once when its time is up, without taking a slot', async () => {
    const invoke = invocationSlots(1);
    const busy = gate();
    const held = invoke(() => busy.opened);
    const timeUp = new AbortController();
    const ran: string[] = [];
    const late = invoke(async () => void ran.push('late'), timeUp.signal);
    const next = invoke(async () => void ran.push('next'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toEqual([]);
    timeUp.abort();
    await late;
    expect(ran).toEqual(['late']);
    busy.open();
    await Promise.all([held, next]);
    expect(ran).toEqual(['late', 'next']);
  });

  it('runs at once when the time is already up on arrival', async () => {
    const invoke = invocationSlots(1);
    const busy = gate();
    const held = invoke(() => busy.opened);
    expect(await invoke(async () => 'answered', AbortSignal.abort())).toBe('answered');
    busy.open();
    await held;
  });
});
