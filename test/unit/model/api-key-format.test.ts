import { generateApiKey, hashApiKey, isWellFormedApiKey } from '#shared/model/api-key-format.ts';

describe('API keys', () => {
  it('carry the greppable prefix, 38 base62 characters and a valid checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^plat_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('are different every time', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('fail the checksum when any one character is changed', () => {
    const key = generateApiKey();
    for (let i = 5; i < key.length; i++) {
      const replacement = key[i] === 'a' ? 'b' : 'a';
      const typo = `${key.slice(0, i)}${replacement}${key.slice(i + 1)}`;
      expect(isWellFormedApiKey(typo)).toBe(false);
    }
  });

  it.each([['plat_'], ['sk_live_abc'], [`ghp_${'a'.repeat(38)}`], [`plat_${'a'.repeat(39)}`], [' plat_x']])(
    'rejects %s by shape',
    (candidate) => {
      expect(isWellFormedApiKey(candidate)).toBe(false);
    },
  );

  it('are stored as their SHA-256 digest, never as themselves', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(5));
  });
});
