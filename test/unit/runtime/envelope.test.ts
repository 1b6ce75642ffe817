import { randomBytes } from 'node:crypto';
import { reloadSettings } from '#shared/runtime/config.ts';
import { KMS_KEY_VARIABLE, LOCAL_KEY_VARIABLE, seal, unseal } from '#shared/runtime/envelope.ts';
import { type KmsStandIn, startKmsStandIn } from '../../support/kms-stand-in.ts';

// Envelope encryption of stored values: locally under a kept key, in AWS under KMS data keys (here a
// stand-in at the client's endpoint that checks each request's signature and binds data keys to
// their encryption context, as KMS does).

const VARIABLES = [
  KMS_KEY_VARIABLE,
  LOCAL_KEY_VARIABLE,
  'AWS_ENDPOINT_URL_KMS',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadSettings();
});

const context = { project: 'prj_1', variable: 'env_1', type: 'secret' };

describe('sealed locally', () => {
  beforeEach(() => {
    delete process.env[KMS_KEY_VARIABLE];
    process.env[LOCAL_KEY_VARIABLE] = randomBytes(32).toString('hex');
  });

  it('opens what it sealed, and seals the same value differently each time', async () => {
    const first = await seal('s3cr3t ✓', context);
    const second = await seal('s3cr3t ✓', context);
    expect(first).toMatch(/^v1\.local\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('s3cr3t');
    expect(await unseal(first, context)).toBe('s3cr3t ✓');
  });

  it('refuses another context, another key and a changed byte', async () => {
    const sealed = await seal('value', context);
    await expect(unseal(sealed, { ...context, variable: 'env_2' })).rejects.toThrow();
    await expect(unseal(sealed, { ...context, type: 'plain' })).rejects.toThrow();
    const [version, kind, key, body] = sealed.split('.');
    const flipped = Buffer.from(body ?? '', 'base64');
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    await expect(
      unseal([version, kind, key, flipped.toString('base64')].join('.'), context),
    ).rejects.toThrow();
    process.env[LOCAL_KEY_VARIABLE] = randomBytes(32).toString('hex');
    await expect(unseal(sealed, context)).rejects.toThrow();
  });

  it('names both variables when neither is set', async () => {
    delete process.env[LOCAL_KEY_VARIABLE];
    await expect(seal('value', context)).rejects.toThrow(/ENVIRONMENT_KEY_ARN.*ENVIRONMENT_SEALING_KEY/);
  });
});

describe('sealed with KMS data keys', () => {
  let kms: KmsStandIn;
  const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/11111111-2222-3333-4444-555555555555';

  beforeAll(async () => {
    const credentials = {
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG',
      sessionToken: 'session-token',
      region: 'eu-west-1',
    };
    kms = await startKmsStandIn(credentials);
    Object.assign(process.env, {
      [KMS_KEY_VARIABLE]: keyArn,
      AWS_ENDPOINT_URL_KMS: kms.endpoint,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SESSION_TOKEN: credentials.sessionToken,
      AWS_REGION: credentials.region,
    });
    delete process.env[LOCAL_KEY_VARIABLE];
    reloadSettings();
  });
  afterAll(() => kms.close());

  it('makes one data key per value under the stack key, bound to the context, and opens it through Decrypt', async () => {
    kms.calls.length = 0;
    const sealed = await seal('kms-sealed-value', context);
    expect(sealed).toMatch(/^v1\.kms\./);
    expect(sealed).not.toContain('kms-sealed-value');
    expect(await unseal(sealed, context)).toBe('kms-sealed-value');
    expect(kms.calls).toEqual([
      { action: 'GenerateDataKey', keyId: keyArn, context },
      { action: 'Decrypt', keyId: keyArn, context },
    ]);
  });

  it('cannot open a value under another context: KMS refuses the data key', async () => {
    const sealed = await seal('value', context);
    await expect(unseal(sealed, { ...context, type: 'plain' })).rejects.toThrow(
      /KMS Decrypt answered 400 \(InvalidCiphertextException\)/,
    );
  });

  it('is signed: the stand-in refuses a request whose signature does not match', async () => {
    const response = await fetch(kms.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'TrentService.Decrypt',
        'x-amz-date': '20261122T091500Z',
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261122/eu-west-1/kms/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=00',
      },
      body: '{}',
    });
    expect(response.status).toBe(403);
  });

  it('cannot open a locally sealed value, nor the reverse', async () => {
    const local = `v1.local.${Buffer.alloc(60).toString('base64')}.${Buffer.alloc(40).toString('base64')}`;
    await expect(unseal(local, context)).rejects.toThrow(/sealed by local/);
  });
});
