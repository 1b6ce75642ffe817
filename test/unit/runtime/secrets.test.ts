import { createHmac } from 'node:crypto';
import { decodeCursor, encodeCursor } from '#shared/db/cursor.ts';
import { clock } from '#shared/runtime/clock.ts';
import { arnVariableOf, forgetSecrets, secrets, secretVersions } from '#shared/runtime/secrets.ts';
import { restoreClockAfterEach } from '../../support/clock.ts';
import { type StandInSecrets, startSecretsExtension } from '../../support/secrets-extension.ts';

// A function in AWS: the cursor key by ARN, from the extension on localhost. Other containers may
// already sign with a rotated key while this one still holds the old value.

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:CursorSecret';
const saved = { ...process.env };
let extension: StandInSecrets;
const realNow = restoreClockAfterEach();

beforeAll(async () => {
  extension = await startSecretsExtension();
  delete process.env[secrets.cursorKey];
  process.env[arnVariableOf('cursorKey')] = ARN;
  process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT = String(extension.port);
  process.env.AWS_SESSION_TOKEN = extension.sessionToken;
});
afterAll(async () => {
  process.env = saved;
  forgetSecrets();
  await extension.close();
});
beforeEach(() => {
  forgetSecrets();
  extension.put(ARN, `key-${Math.random()}`);
  extension.asked();
});

/** A cursor as a container holding `key` would sign it. */
const signedWith = (key: string, scope: string, lastId: string): string => {
  const payload = Buffer.from(lastId).toString('base64url');
  const mac = createHmac('sha256', key).update(`${scope}\n${payload}`).digest().subarray(0, 16);
  return `${payload}.${mac.toString('base64url')}`;
};

describe('secrets from the extension', () => {
  it('asks once for the current and previous value, then serves from memory', async () => {
    await secretVersions('cursorKey');
    await secretVersions('cursorKey');
    expect(extension.asked().sort()).toEqual([`${ARN} AWSCURRENT`, `${ARN} AWSPREVIOUS`]);
  });

  it('asks again after four minutes, so a rotation reaches a warm container', async () => {
    const start = realNow();
    clock.now = () => start;
    const before = await secretVersions('cursorKey');
    extension.put(ARN, 'rotated');
    clock.now = () => start + 4 * 60 * 1000 + 1;
    expect(await secretVersions('cursorKey')).toEqual({ current: 'rotated', previous: before.current });
  });

  it('accepts a cursor that another container signed with a key rotated in since this one fetched', async () => {
    const start = realNow();
    clock.now = () => start;
    await encodeCursor('projects:usr_1', 'prj_1');
    extension.put(ARN, 'new-key');
    clock.now = () => start + 31_000;
    await expect(
      decodeCursor('projects:usr_1', signedWith('new-key', 'projects:usr_1', 'prj_9')),
    ).resolves.toBe('prj_9');
  });

  it('refuses a cursor signed with an unknown key, asking the extension at most once per 30 seconds', async () => {
    const start = realNow();
    clock.now = () => start;
    await encodeCursor('projects:usr_1', 'prj_1');
    extension.asked();
    clock.now = () => start + 31_000;
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(
        decodeCursor('projects:usr_1', signedWith('nobody', 'projects:usr_1', 'x')),
      ).rejects.toMatchObject({
        field: 'cursor',
      });
    }
    expect(extension.asked()).toHaveLength(2);
  });

  it('fails a request, and keeps nothing, when the extension does not know the secret', async () => {
    process.env[arnVariableOf('cursorKey')] = `${ARN}-missing`;
    try {
      await expect(secretVersions('cursorKey')).rejects.toThrow(/Secrets extension answered 400/);
      process.env[arnVariableOf('cursorKey')] = ARN;
      await expect(secretVersions('cursorKey')).resolves.toMatchObject({ current: expect.any(String) });
    } finally {
      process.env[arnVariableOf('cursorKey')] = ARN;
    }
  });
});
