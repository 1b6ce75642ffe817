import type { BenchData } from './requests.ts';

// What the measured requests need in the store: an admin's key with an allowance no bench
// exhausts, a project and a deployment of theirs, and users to log in (one per round: login
// allows only a few attempts per email and window). Made through the local gateway, as clients
// would make them, except the key, which is issued directly so it can carry its own allowance.

export interface BenchSetup extends BenchData {
  /** The admin's user id: the bare handler reads the project under it. */
  ownerId: string;
}

export async function makeBenchData(gatewayUrl: string, rounds: number): Promise<BenchSetup> {
  const { newCaller } = await import('../support/users.ts');
  const admin = await newCaller({ role: 'admin', rateLimit: 100_000_000 });
  const post = async (path: string, body: unknown, key?: string) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`Bench setup: POST ${path} answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const project = await post('/v1/projects', { name: 'bench' }, admin.key);
  const deployment = await post('/v1/deployments', { projectId: project.id }, admin.key);
  const runId = Date.now().toString(36);
  const loginUsers = Array.from({ length: rounds }, (_, round) => ({
    email: `bench-login-${runId}-${round}@example.test`,
    password: 'bench passphrase',
  }));
  for (const user of loginUsers) await post('/auth/register', user);
  return {
    ownerId: admin.userId,
    adminKey: admin.key,
    projectId: String(project.id),
    deploymentId: String(deployment.id),
    loginUsers,
    runId,
  };
}
