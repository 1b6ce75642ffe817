import { reloadSettings } from '#shared/runtime/config.ts';
import { decryptDataKey, generateDataKey } from '#shared/runtime/kms.ts';
import { type KmsStandIn, startKmsStandIn } from '../../support/kms-stand-in.ts';

// The KMS calls behave like the SDK's clients' (shared/runtime/aws-json-client.ts): here, against a
// stand-in whose clock is ten minutes ahead, as a container's may drift. KMS refuses a signature more
// than five minutes off; the SDK's signer reads KMS's time from the refusal and signs again.

const VARIABLES = [
  'AWS_ENDPOINT_URL_KMS',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
const keyId = 'arn:aws:kms:eu-west-1:123456789012:key/skewed';
const context = { projectId: 'prj_1', variableId: 'env_1', type: 'secret' };

let kms: KmsStandIn;
beforeAll(async () => {
  const credentials = { accessKeyId: 'AKIDSKEW', secretAccessKey: 'skew-secret', region: 'eu-west-1' };
  kms = await startKmsStandIn(credentials, { clockSkewMs: 10 * 60_000 });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_KMS: kms.endpoint,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_REGION: credentials.region,
  });
  delete process.env.AWS_SESSION_TOKEN;
  reloadSettings();
});
afterAll(async () => {
  await kms.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadSettings();
});

it("signs again with KMS's time when its own clock is off, and keeps the correction for the next call", async () => {
  const { plaintext, encrypted } = await generateDataKey(keyId, context);
  expect(kms.refused).toEqual(['InvalidSignatureException']);
  expect(await decryptDataKey(keyId, encrypted, context)).toEqual(plaintext);
  expect(kms.refused).toEqual(['InvalidSignatureException']);
  expect(kms.calls.map((call) => call.action)).toEqual(['GenerateDataKey', 'Decrypt']);
});
