import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for the AWS Parameters and Secrets Lambda Extension on loopback: what a bundle asks
// for its secrets in AWS (shared/runtime/secrets.ts). It answers GET /secretsmanager/get as the extension
// does, only to callers that send the session token, and knows AWSPREVIOUS only after a rotation.

export interface StandInSecrets {
  port: number;
  sessionToken: string;
  /** Sets a secret's value; a later call moves the earlier value to AWSPREVIOUS, as a rotation does. */
  put(arn: string, value: string): void;
  /** The ARNs asked for, with their version stage, since the last `asked()`. */
  asked(): string[];
  close(): Promise<void>;
}

export async function startSecretsExtension(): Promise<StandInSecrets> {
  const sessionToken = 'bundle-test-session-token';
  const versions = new Map<string, { current: string; previous?: string }>();
  let asked: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const arn = url.searchParams.get('secretId') ?? '';
    const stage = url.searchParams.get('versionStage') ?? 'AWSCURRENT';
    asked.push(`${arn} ${stage}`);
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname !== '/secretsmanager/get') return answer(404, { message: 'not found' });
    if (request.headers['x-aws-parameters-secrets-token'] !== sessionToken) {
      return answer(401, { message: 'missing or wrong session token' });
    }
    const secret = versions.get(arn);
    const value = stage === 'AWSPREVIOUS' ? secret?.previous : secret?.current;
    if (value === undefined) return answer(400, { __type: 'ResourceNotFoundException' });
    return answer(200, {
      ARN: arn,
      Name: arn.split(':').at(-1),
      SecretString: value,
      VersionStages: [stage],
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    port: (server.address() as AddressInfo).port,
    sessionToken,
    put(arn, value) {
      const before = versions.get(arn);
      versions.set(arn, { current: value, ...(before ? { previous: before.current } : {}) });
    },
    asked() {
      const taken = asked;
      asked = [];
      return taken;
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
}
