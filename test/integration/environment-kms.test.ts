import { reloadSettings } from '#shared/runtime/config.ts';
import { KMS_KEY_VARIABLE, LOCAL_KEY_VARIABLE } from '#shared/runtime/envelope.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { type KmsStandIn, startKmsStandIn } from '../support/kms-stand-in.ts';
import { newCaller } from '../support/users.ts';

// The routes on the KMS path, as in AWS (a stand-in answers at the client's endpoint): which route
// makes data keys and which opens them. Only the build's read opens a secret's; the list and a PATCH
// open plain ones only, which is all their IAM grants allow in the stack (infra/access/environment-key.ts).

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
const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/environment';

let gateway: TestGateway;
let kms: KmsStandIn;
beforeAll(async () => {
  const credentials = {
    accessKeyId: 'AKIDLAMBDA',
    secretAccessKey: 'lambda-secret',
    sessionToken: 'lambda-session',
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
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway.close();
  await kms.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadSettings();
});

const callsOf = async (request: () => Promise<unknown>) => {
  kms.calls.length = 0;
  await request();
  return kms.calls.map((made) => `${made.action} ${made.context.type}`);
};

it('makes a data key per value written, opens plain ones to show them, and secrets only for the build', async () => {
  const { key } = await newCaller();
  const base = gateway.baseUrl;
  const project = (await call(`${base}/projects`, { method: 'POST', key, json: { name: 'web' } })).body as {
    id: string;
  };
  const env = `${base}/projects/${project.id}/env`;
  let secretId = '';
  expect(
    await callsOf(async () => {
      const made = await call(env, {
        method: 'POST',
        key,
        json: { key: 'TOKEN', value: 'kms-secret', type: 'secret' },
      });
      secretId = (made.body as { id: string }).id;
    }),
  ).toEqual(['GenerateDataKey secret']);
  expect(
    await callsOf(() => call(env, { method: 'POST', key, json: { key: 'MODE', value: 'kms-plain' } })),
  ).toEqual(['GenerateDataKey plain']);
  const listed = await call(env, { key });
  expect(
    (listed.body as { variables: { value?: string }[] }).variables.map((variable) => variable.value),
  ).toEqual(['kms-plain', undefined]);
  expect(await callsOf(() => call(env, { key }))).toEqual(['Decrypt plain']);
  expect(
    await callsOf(() =>
      call(`${env}/${secretId}`, { method: 'PATCH', key, json: { targets: ['production'] } }),
    ),
  ).toEqual([]);
  // A snapshot copies the sealed values: no KMS call.
  let deploymentId = '';
  expect(
    await callsOf(async () => {
      deploymentId = (
        (await call(`${base}/deployments`, { method: 'POST', key, json: { projectId: project.id } }))
          .body as { id: string }
      ).id;
    }),
  ).toEqual([]);
  const build = (
    (await call(`${base}/keys`, { method: 'POST', key, json: { name: 'ci', scopes: ['build'] } })).body as {
      apiKey: string;
    }
  ).apiKey;
  let answer: unknown;
  expect(
    (
      await callsOf(async () => {
        answer = (await call(`${base}/deployments/${deploymentId}/build-env`, { key: build })).body;
      })
    ).sort(),
  ).toEqual(['Decrypt plain', 'Decrypt secret']);
  expect(answer).toEqual({ variables: { TOKEN: 'kms-secret', MODE: 'kms-plain' }, target: 'production' });
});
