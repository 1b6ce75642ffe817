import type { ChildProcess } from 'node:child_process';
import type { DynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import type { TestDnsServer } from './dns-server.ts';
import { endSynthesis } from './synthesized-stack.ts';

export default async function globalTeardown(): Promise<void> {
  const run = globalThis as {
    __dynamoDbLocal?: DynamoDbLocal;
    __synthesis?: ChildProcess;
    __dnsServer?: TestDnsServer;
  };
  endSynthesis(run.__synthesis);
  await run.__dnsServer?.close();
  await run.__dynamoDbLocal?.stop();
}
