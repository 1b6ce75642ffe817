import { BENCH_WEBHOOK_URL, type BenchData } from './requests.ts';

// What the measured requests need in the store: an admin's project and deployment, users to log
// in (one per round: login allows only a few attempts per email and window), and keys of that
// admin with an allowance no bench exhausts: one for the warm phase, and a fresh one for every
// cold invocation, since some of them revoke the key they are called with (logout, revoke-key);
// likewise a fresh deployment for those that change one.
// Things are made through the local gateway, as clients make them, except keys, which are issued
// directly so that they can carry their own allowance.

export interface BenchSetup extends BenchData {
  /** The admin's user id: the bare handler reads the project under it. */
  ownerId: string;
  /** A new key of the admin's (or of another new admin's, given their id), and its id. */
  issueKey(userId?: string): Promise<{ apiKey: string; id: string }>;
  /** A new queued deployment of the admin's project, for requests that change one (cancel, report). */
  newDeployment(): Promise<string>;
  /** A new project of the admin's, for the request that deletes one. */
  newProject(): Promise<string>;
  /** A new webhook of the admin's, for the request that deletes one. */
  newWebhook(): Promise<string>;
}

export async function makeBenchData(gatewayUrl: string, rounds: number): Promise<BenchSetup> {
  const { issueApiKey } = await import('../../shared/domain/api-keys.ts');
  const ownerId = `usr_bench_${Date.now().toString(36)}`;
  const issueKey = async (userId = ownerId) => {
    const issued = await issueApiKey({
      userId,
      role: 'admin',
      name: 'bench',
      rateLimit: 100_000_000,
    });
    return { apiKey: issued.apiKey, id: issued.key.id };
  };
  const adminKey = (await issueKey()).apiKey;
  const post = async (path: string, body: unknown, key?: string) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) {
      throw new Error(`Bench setup: POST ${path} answered ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as Record<string, unknown>;
  };
  const project = await post('/v1/projects', { name: 'bench' }, adminKey);
  const deployment = await post('/v1/deployments', { projectId: project.id }, adminKey);
  const runId = Date.now().toString(36);
  const loginUsers = Array.from({ length: rounds }, (_, round) => ({
    email: `bench-login-${runId}-${round}@example.test`,
    password: 'bench passphrase',
  }));
  for (const user of loginUsers) await post('/auth/register', user);
  const newDeployment = async () =>
    String((await post('/v1/deployments', { projectId: project.id }, adminKey)).id);
  const newProject = async () => String((await post('/v1/projects', { name: 'bench' }, adminKey)).id);
  const newWebhook = async () => {
    const created = await post('/v1/webhooks', { url: BENCH_WEBHOOK_URL, events: ['*'] }, adminKey);
    return String((created.webhook as { id: string }).id);
  };
  const webhookId = await newWebhook();
  return {
    ownerId,
    issueKey,
    newDeployment,
    newProject,
    newWebhook,
    webhookId,
    adminKey,
    projectId: String(project.id),
    deploymentId: String(deployment.id),
    loginUsers,
    runId,
  };
}
