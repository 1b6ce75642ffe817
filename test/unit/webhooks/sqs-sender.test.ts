import { reloadSettings } from '#shared/runtime/config.ts';
import { sendMessageBatch } from '#shared/webhooks/sqs.ts';
import { startSqsStandIn } from '../../support/sqs-stand-in.ts';

// The webhook functions' one SQS call (shared/webhooks/sqs.ts), made as the SDK's SQS client made it:
// to the queue URL's host, in SQS's JSON protocol, signed for SQS in the function's region with the
// role's credentials, and refused unless SQS took every message as it was sent.

const VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION'];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
beforeAll(() => {
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'ASIASENDER',
    AWS_SECRET_ACCESS_KEY: 'sender-secret',
    AWS_SESSION_TOKEN: 'sender-session',
    AWS_REGION: 'eu-west-1',
  });
  reloadSettings();
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadSettings();
});

const entries = [
  { body: '{"messageId":"wdl_1"}', delaySeconds: 0 },
  { body: '{"messageId":"wdl_2","text":"é ✓"}', delaySeconds: 30 },
];

it("sends a batch to the queue's host, in SQS's JSON protocol, signed for SQS with the role's credentials", async () => {
  const queue = await startSqsStandIn();
  try {
    await sendMessageBatch(queue.url, entries);
    expect(queue.bodies).toEqual(entries.map((entry) => entry.body));
    const [headers] = queue.headers;
    expect(headers).toMatchObject({
      'x-amz-target': 'AmazonSQS.SendMessageBatch',
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-security-token': 'sender-session',
    });
    expect(String(headers?.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=ASIASENDER\/\d{8}\/eu-west-1\/sqs\/aws4_request, /,
    );
  } finally {
    await queue.close();
  }
});

it('fails when SQS did not take every message', async () => {
  const queue = await startSqsStandIn({
    answer: ({ Successful }) => ({
      Successful: Successful.slice(1),
      Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }],
    }),
  });
  try {
    await expect(sendMessageBatch(queue.url, entries)).rejects.toThrow(
      'SQS SendMessageBatch: 1 of 2 messages not sent',
    );
  } finally {
    await queue.close();
  }
});

it('fails when a message arrived other than it was sent (its MD5 differs)', async () => {
  const queue = await startSqsStandIn({
    answer: ({ Successful, Failed }) => ({
      Successful: Successful.map((taken) =>
        taken.Id === '1' ? { ...taken, MD5OfMessageBody: '0'.repeat(32) } : taken,
      ),
      Failed,
    }),
  });
  try {
    await expect(sendMessageBatch(queue.url, entries)).rejects.toThrow(
      'SQS SendMessageBatch: message 1 arrived other than it was sent (MD5)',
    );
  } finally {
    await queue.close();
  }
});
