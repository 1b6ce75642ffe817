import { MAX_JSON_DEPTH, nestsDeeperThan } from '#shared/http/input/json-depth.ts';

// The nesting bound of request bodies: the body's own object is level 1, scalars add no level.

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { inner: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('accepts exactly the limit and refuses one level more', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('walks a million levels without recursion', () => {
    expect(nestsDeeperThan(nested(1_000_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts depth, not breadth', () => {
    const wide = { list: Array.from({ length: 10_000 }, (_, index) => ({ index, tags: ['a', 'b'] })) };
    expect(nestsDeeperThan(wide, 4)).toBe(false);
    expect(nestsDeeperThan(wide, 3)).toBe(true);
  });

  it('sees scalars as no nesting at all', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
  });
});
