import { allowance, retryAfterSeconds, windowAt } from '#shared/model/rate-limit.ts';

// The arithmetic behind X-RateLimit-*: windows aligned to multiples of their length, what is left,
// and how long to wait.

describe('fixed rate-limit windows', () => {
  it('aligns a window to a multiple of its length, so every container agrees on it', () => {
    expect(windowAt(1_795_338_942, 60)).toEqual({ start: 1_795_338_900, end: 1_795_338_960 });
    expect(windowAt(1_795_338_900, 60)).toEqual({ start: 1_795_338_900, end: 1_795_338_960 });
    expect(windowAt(1_795_338_959, 60)).toEqual({ start: 1_795_338_900, end: 1_795_338_960 });
    expect(windowAt(1_795_338_960, 60)).toEqual({ start: 1_795_338_960, end: 1_795_339_020 });
    expect(windowAt(1_795_338_942, 3600)).toEqual({ start: 1_795_338_000, end: 1_795_341_600 });
  });

  it('reports what is left and when the window resets, never below zero', () => {
    const window = { start: 1_795_338_900, end: 1_795_338_960 };
    expect(allowance(100, 1, window)).toEqual({ limit: 100, remaining: 99, resetAt: 1_795_338_960 });
    expect(allowance(100, 100, window)).toEqual({ limit: 100, remaining: 0, resetAt: 1_795_338_960 });
    expect(allowance(100, 250, window)).toEqual({ limit: 100, remaining: 0, resetAt: 1_795_338_960 });
  });

  it('tells a refused client to wait until the window ends, and at least a second', () => {
    const state = { limit: 10, remaining: 0, resetAt: 1_795_338_960 };
    expect(retryAfterSeconds(state, 1_795_338_942)).toBe(18);
    expect(retryAfterSeconds(state, 1_795_338_959)).toBe(1);
    expect(retryAfterSeconds(state, 1_795_338_960)).toBe(1);
  });
});
