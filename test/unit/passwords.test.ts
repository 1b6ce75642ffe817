import { hashPassword, needsRehash, verifyPassword } from '#shared/domain/passwords.ts';

describe('password hashing', () => {
  it("stores argon2id at OWASP's parameters in PHC form, salted", async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(first).not.toBe(second);
  });

  it('verifies the right password and refuses any other', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct hors', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('refuses a stored value that is not a hash of ours', async () => {
    expect(await verifyPassword('x', 'plain text')).toBe(false);
  });

  it('asks for a rehash when the parameters were weaker, and verifies the old hash meanwhile', async () => {
    const old = await hashPassword('correct horse', { memoryKiB: 8192, passes: 1, parallelism: 1 });
    expect(needsRehash(old)).toBe(true);
    expect(await verifyPassword('correct horse', old)).toBe(true);
    expect(needsRehash(await hashPassword('correct horse'))).toBe(false);
  });
});
