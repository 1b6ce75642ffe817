import {
  FIRST_CHECK_DELAY_MS,
  MAX_CHECK_DELAY_MS,
  nextCheckAtMs,
} from '#shared/model/custom-domains/domains.ts';
import { challengeValueOf, normaliseDomainName } from '#shared/model/custom-domains/names.ts';
import { isApex, isPublicSuffix } from '#shared/model/custom-domains/public-suffixes.ts';

// Custom domains' names as stored, and when a pending one is checked next. (Over HTTP, with the 400s
// they answer: test/integration/domains.test.ts.)

describe('a domain name as stored', () => {
  it.each([
    ['www.example.com', 'www.example.com'],
    ['WWW.Example.COM', 'www.example.com'],
    ['www.example.com.', 'www.example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('takes %s as %s', (given, stored) => {
    expect(normaliseDomainName(given)).toEqual({ ok: true, name: stored });
  });

  it.each([
    ['', 'must not be empty'],
    ['.', 'must not be empty'],
    ['com', 'must have at least two labels, such as example.com'],
    ['*.example.com', 'must not be a wildcard: name one host, such as www.example.com'],
    ['10.0.0.1', 'must be a hostname, not an IP address'],
    ['www.0x7f', 'must be a hostname, not an IP address'],
    ['[::1]', 'must be a hostname: labels of letters, digits and hyphens, separated by dots'],
    ['exa%6dple.com', 'must be a hostname: labels of letters, digits and hyphens, separated by dots'],
    ['a b.com', 'must be a hostname: labels of letters, digits and hyphens, separated by dots'],
    ['a..com', 'must be a hostname: labels of letters, digits and hyphens, separated by dots'],
    ['user@example.com', 'must be a hostname: labels of letters, digits and hyphens, separated by dots'],
    ['example.com:443', 'must be a hostname: labels of letters, digits and hyphens, separated by dots'],
    [
      '-a.com',
      'must be a hostname: each label 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen',
    ],
    [
      'a-.com',
      'must be a hostname: each label 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen',
    ],
    [
      `${'a'.repeat(64)}.com`,
      'must be a hostname: each label 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen',
    ],
    [`${'abcdefghi.'.repeat(24)}ab.example.com`, 'must be at most 253 characters (as A-labels)'],
    ['xn--zz.com', 'is not a valid internationalised hostname'],
  ])('refuses %j: %s', (given, problem) => {
    expect(normaliseDomainName(given)).toEqual({ ok: false, problem });
  });
});

describe('the Public Suffix List', () => {
  it.each(['com', 'co.uk', 'github.io', 'xn--zckzah'])('knows %s as a public suffix', (name) => {
    expect(isPublicSuffix(name)).toBe(true);
  });
  it.each(['example.com', 'shop.co.uk', 'me.github.io'])('knows %s as a name under one', (name) => {
    expect(isPublicSuffix(name)).toBe(false);
  });
  it.each(['example.com', 'shop.co.uk', 'me.github.io', 'xn--bcher-kva.de'])(
    'knows %s as an apex (no CNAME there: its routing record is an ALIAS)',
    (name) => expect(isApex(name)).toBe(true),
  );
  it.each(['www.example.com', 'a.shop.co.uk', 'co.uk'])('knows %s as no apex', (name) => {
    expect(isApex(name)).toBe(false);
  });
});

describe("a domain's ownership value", () => {
  it('differs from one project to the next for the same name, and from one name to the next', () => {
    const value = challengeValueOf('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', 'www.example.com');
    expect(value).toMatch(/^platform-verification=[0-9a-f]{40}$/);
    expect(challengeValueOf('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B', 'www.example.com')).not.toBe(value);
    expect(challengeValueOf('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', 'api.example.com')).not.toBe(value);
    expect(challengeValueOf('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', 'www.example.com')).toBe(value);
  });
});

describe('when a pending domain is checked next', () => {
  const now = Date.parse('2026-11-26T00:00:00.000Z');
  const week = now + 7 * 24 * 3_600_000;

  it('waits a minute, then twice as long each time, an hour at most', () => {
    expect([0, 1, 2, 3, 6, 7, 50].map((checks) => nextCheckAtMs(now, checks, week) - now)).toEqual([
      FIRST_CHECK_DELAY_MS,
      2 * FIRST_CHECK_DELAY_MS,
      4 * FIRST_CHECK_DELAY_MS,
      8 * FIRST_CHECK_DELAY_MS,
      MAX_CHECK_DELAY_MS,
      MAX_CHECK_DELAY_MS,
      MAX_CHECK_DELAY_MS,
    ]);
  });

  it('never after its expiry, when the check that finds it expired comes', () => {
    expect(nextCheckAtMs(week - 1000, 10, week)).toBe(week);
  });
});
