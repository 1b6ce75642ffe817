import { allows, coversAll, scopesOf } from '#shared/model/scopes.ts';

// What each scope allows, and what a key may give the keys it makes.

describe('scopes', () => {
  it('lets write do what read does, and neither do what only build does', () => {
    expect(allows(['write'], 'read')).toBe(true);
    expect(allows(['read'], 'write')).toBe(false);
    expect(allows(['write'], 'build')).toBe(false);
    expect(allows(['read', 'write'], 'build')).toBe(false);
    expect(allows(['build'], 'read')).toBe(false);
    expect(allows(['build'], 'write')).toBe(false);
  });

  it('accepts any one of several scopes a route names', () => {
    expect(allows(['build'], ['read', 'build'])).toBe(true);
    expect(allows(['write'], ['read', 'build'])).toBe(true);
    expect(allows(['read'], ['write', 'build'])).toBe(false);
    expect(allows(['build'], ['write', 'build'])).toBe(true);
  });

  it('lets a write key make keys of any scope, build included; other keys only their own', () => {
    expect(coversAll(['read', 'write'], ['build'])).toBe(true);
    expect(coversAll(['write'], ['read', 'write', 'build'])).toBe(true);
    expect(coversAll(['read'], ['build'])).toBe(false);
    expect(coversAll(['read', 'build'], ['read', 'build'])).toBe(true);
  });

  it('reads keys stored before scopes as login keys: read and write, not build', () => {
    expect(scopesOf(undefined)).toEqual(['read', 'write']);
    expect(scopesOf(['build', 'nonsense'])).toEqual(['build']);
  });
});
