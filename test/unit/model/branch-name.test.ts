import { isValidBranchName } from '#shared/model/deployments/branch-name.ts';

describe("git's branch-name rules", () => {
  it.each([
    'main',
    'feature/login',
    'release/2026.11',
    'fix-123_b',
    'user@host',
    'ünïcödé',
    'a.b',
    'x'.repeat(255),
  ])('accepts %s', (name) => {
    expect(isValidBranchName(name)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['longer than 255', 'x'.repeat(256)],
    ['a leading dash', '-x'],
    ['the single @', '@'],
    ['a space', 'a b'],
    ['a tab', 'a\tb'],
    ['DEL', 'a\u007fb'],
    ['~', 'a~1'],
    ['^', 'a^'],
    [':', 'a:b'],
    ['?', 'a?'],
    ['*', 'a*'],
    ['[', 'a[b'],
    ['a backslash', 'a\\b'],
    ['..', 'a..b'],
    ['@{', 'a@{b'],
    ['//', 'a//b'],
    ['a leading slash', '/a'],
    ['a trailing slash', 'a/'],
    ['a trailing dot', 'a.'],
    ['a component starting with a dot', 'a/.b'],
    ['a component ending in .lock', 'a.lock/b'],
  ])('rejects a name with %s', (_reason, name) => {
    expect(isValidBranchName(name)).toBe(false);
  });
});
