import { maskSecrets, secretsToMask } from '#shared/model/deployments/logs.ts';

// Masking secret values in build log lines before they are stored.

describe('maskSecrets', () => {
  it('replaces every occurrence of each secret with ***', () => {
    expect(maskSecrets('token=s3cr3t and again s3cr3ts3cr3t', ['s3cr3t'])).toBe('token=*** and again ******');
  });

  it('leaves values shorter than 4 characters alone, as masking them would hide ordinary text', () => {
    expect(maskSecrets('pin abc, key abcd', ['abc', 'abcd'])).toBe('pin abc, key ***');
  });

  it('masks a secret that contains another whole, not leaving its remainder readable', () => {
    expect(maskSecrets('long: prefix-and-more; short: prefix', ['prefix', 'prefix-and-more'])).toBe(
      'long: ***; short: ***',
    );
  });

  it('takes secrets with characters that mean something in a pattern literally', () => {
    expect(maskSecrets('a.*b$1 and a-b', ['a.*b$1'])).toBe('*** and a-b');
  });

  it('leaves a text without secrets as it is', () => {
    expect(maskSecrets('nothing here', [])).toBe('nothing here');
  });
});

describe('secretsToMask', () => {
  it('keeps each value of 4 characters or more once, longest first', () => {
    expect(secretsToMask(['abcd', 'ab', 'abcdef', 'abcd'])).toEqual(['abcdef', 'abcd']);
  });
});
