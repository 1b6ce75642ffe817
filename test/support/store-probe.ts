import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from '#infra/local/dynamodb-local.ts';

// A probe of the run's DynamoDB Local, for finding out why it answers slowly (not a test): with
// PLATFORM_TEST_STORE_PROBE=<file>, the global setup asks it for one table name every 100 ms and
// appends each answer's time to the file (`<epoch ms> <ms>`), one call at a time; when it stops, the
// CPU its JVM has used in all (`jvm-cpu <s>`).

/** User and system seconds of the JVM listening on `port`. */
function jvmCpuSeconds(port: string): number {
  const pid = execFileSync('pgrep', ['-f', `^java .*DynamoDBLocal.jar -port ${port} `], {
    encoding: 'utf8',
  }).trim();
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function startStoreProbe(endpoint: string, file: string): () => void {
  const client = localClient(endpoint);
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      const started = performance.now();
      let outcome = '';
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
      } catch (error) {
        outcome = ` ${error instanceof Error ? error.name : 'error'}`;
      }
      appendFileSync(file, `${Date.now()} ${(performance.now() - started).toFixed(1)}${outcome}\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  void loop();
  return () => {
    stopped = true;
    client.destroy();
    try {
      appendFileSync(file, `jvm-cpu ${jvmCpuSeconds(new URL(endpoint).port)}\n`);
    } catch {
      // Only an account: a JVM already gone has nothing to tell.
    }
  };
}
