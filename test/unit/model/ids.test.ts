import { newId, timeOfId } from '#shared/model/ids.ts';
import { clock } from '#shared/runtime/clock.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';

describe('ids', () => {
  restoreClockAfterEach();

  it('sort by creation time even within one millisecond', () => {
    clock.now = () => 1_790_000_000_000;
    const ids = Array.from({ length: 500 }, () => newId('prj'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(500);
  });

  it('sort across milliseconds', () => {
    clock.now = () => 1_790_000_000_000;
    const earlier = newId('dpl');
    clock.now = () => 1_790_000_000_001;
    expect(newId('dpl') > earlier).toBe(true);
  });

  it('carry their prefix and a 26-character ULID', () => {
    expect(newId('usr')).toMatch(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('tell the millisecond they were made in', () => {
    clock.now = () => 1_790_000_000_123;
    expect(timeOfId(newId('aud'))).toBe(1_790_000_000_123);
    expect(timeOfId(newId('team'))).toBe(1_790_000_000_123);
  });
});
