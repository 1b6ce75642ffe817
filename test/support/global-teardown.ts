import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { DynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import type { TestDnsServer } from './dns-server.ts';
import { endSynthesis } from './synthesized-stack.ts';

export default async function globalTeardown(): Promise<void> {
  const run = globalThis as {
    __dynamoDbLocals?: DynamoDbLocal[];
    __synthesis?: ChildProcess;
    __dnsServer?: TestDnsServer;
    __runTemporary?: string;
    __stopProbe?: () => void;
  };
  run.__stopProbe?.();
  endSynthesis(run.__synthesis);
  await run.__dnsServer?.close();
  await Promise.all((run.__dynamoDbLocals ?? []).map((store) => store.stop()));
  if (run.__runTemporary) rmSync(run.__runTemporary, { recursive: true, force: true });
}
