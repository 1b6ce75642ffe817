import type { PlatformClient, Schemas } from '@platform-api/client';
import {
  eventLine,
  type FollowBuildOptions,
  followBuild,
  queuedNoticeMs,
  stillQueuedLine,
} from '../build-log.ts';
import type { Commands } from '../command.ts';
import { CliError, collect, defined, duration, LIST_OPTIONS, string } from '../flags.ts';
import { listOutput, objectOutput } from '../output.ts';
import { projectId } from '../project-ref.ts';

// `platform deploy` (with --wait, the build as it happens) and `platform deployments
// list|get|events|wait|cancel`.

const DEPLOYMENT_COLUMNS: (keyof Schemas['Deployment'])[] = [
  'id',
  'projectId',
  'branch',
  'target',
  'status',
  'createdAt',
];
type DeploymentTarget = Schemas['Deployment']['target'];
type Deployment = Schemas['Deployment'];

/** An entry of a deployment's history as one line: when, the status and what the report said; or a read of its build environment. */
function historyLine(event: Schemas['DeploymentEvent']): string {
  if ('type' in event) return `${event.at}  build-env read by ${event.keyId}`;
  const said = [event.message, event.commitSha, event.url].filter(Boolean).join('  ');
  return `${event.at}  ${event.status}${said ? `  ${said}` : ''}`;
}

const TERMINAL: readonly string[] = ['ready', 'error', 'canceled'];
/** The longest one wait request may hold (the API's `timeout`, in seconds). */
const MAX_WAIT_SECONDS = 25;

/**
 * Waits until the deployment is terminal, one long-polling request of at most 25 s after another,
 * for at most `timeoutMs`: the deployment, or a `timeout` error (exit code 1) naming its status.
 */
async function waitUntilTerminal(
  api: PlatformClient,
  id: string,
  timeoutMs: number,
  stillQueued: NonNullable<FollowBuildOptions['stillQueued']>,
): Promise<Deployment> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  // The first request ends in time to say that nothing builds it, should it still be queued then.
  let noticeAt = stillQueued.afterMs > 0 ? started + stillQueued.afterMs : Number.POSITIVE_INFINITY;
  for (;;) {
    const until = Math.min(deadline, noticeAt);
    const seconds = Math.min(MAX_WAIT_SECONDS, Math.max(1, Math.ceil((until - Date.now()) / 1000)));
    const deployment = await api.deployments.wait(id, { timeout: seconds });
    if (TERMINAL.includes(deployment.status)) return deployment;
    if (Date.now() >= noticeAt) {
      if (deployment.status === 'queued') stillQueued.tell(stillQueuedLine(id, stillQueued.afterMs));
      noticeAt = Number.POSITIVE_INFINITY;
    }
    if (Date.now() >= deadline) {
      throw new CliError(
        'timeout',
        `Deployment ${id} is still ${deployment.status} after ${timeoutMs / 1000} s`,
        1,
      );
    }
  }
}

export const deploymentCommands: Commands = {
  deploy: {
    usage:
      'deploy <project id or name> [--branch <branch>] [--target production|preview] [--wait] [--timeout <15m>]',
    summary: 'Deploy a branch of a project; with --wait, follow its build until it ends.',
    args: ['project'],
    options: {
      branch: { type: 'string', help: "the branch to deploy (default: the project's production branch)" },
      target: {
        type: 'string',
        help: 'production or preview (default: production for the production branch, else preview)',
      },
      wait: { type: 'boolean', help: 'follow the build until it ends; exit 1 unless it ends ready' },
      timeout: { type: 'string', help: 'how long --wait waits, like 90s, 15m or 1h (default 15m)' },
    },
    async run({ args: [project = ''], flags, client, io, progress }) {
      // Both read before the deployment is made: a bad setting refuses it, not the wait after it.
      const timeoutMs = duration(flags, 'timeout', '15m');
      const stillQueued = { afterMs: queuedNoticeMs(io.env), tell: progress };
      const api = await client();
      const created = await api.deployments.create(
        defined({
          projectId: await projectId(api, project),
          branch: string(flags, 'branch'),
          target: string(flags, 'target') as DeploymentTarget | undefined,
        }),
      );
      if (!flags.wait) return objectOutput(created);
      // Its id first, with how to follow or cancel it from elsewhere; then the build's statuses and
      // log lines as they come (on stderr with --json), then the deployment.
      progress(
        `Deployment ${created.id} (${created.target}): \`platform logs ${created.id} --follow\` follows it, \`platform deployments cancel ${created.id}\` cancels it`,
      );
      const status = await followBuild(api, created.id, {
        timeoutMs,
        print: (event) => progress(eventLine(event)),
        stillQueued,
      });
      return { ...objectOutput(await api.deployments.get(created.id)), exitCode: status === 'ready' ? 0 : 1 };
    },
  },
  'deployments list': {
    usage:
      'deployments list [--project <id or name>] [--status <a,b>] [--branch <branch>] [--target production|preview] [--limit <n>]',
    summary: "List deployments, newest first: every project's or one's, by status, branch and target.",
    options: {
      ...LIST_OPTIONS,
      project: {
        type: 'string',
        help: "only this project's deployments, by id or name (default: every project)",
      },
      status: {
        type: 'string',
        help: 'only these states, comma-separated: queued, building, ready, error, canceled',
      },
      branch: { type: 'string', help: 'only deployments of this branch' },
      target: { type: 'string', help: 'only production or only preview deployments (default: both)' },
    },
    async run({ flags, client }) {
      const api = await client();
      const project = string(flags, 'project');
      const query = defined({
        limit: 100,
        status: string(flags, 'status'),
        branch: string(flags, 'branch'),
        target: string(flags, 'target') as DeploymentTarget | undefined,
      });
      const items = project
        ? api.deployments.listForProject(await projectId(api, project), query)
        : api.deployments.list(query);
      return listOutput(await collect(items, flags), DEPLOYMENT_COLUMNS);
    },
  },
  'deployments get': {
    usage: 'deployments get <id>',
    summary: 'Show one deployment and its status.',
    args: ['id'],
    run: async ({ args: [id = ''], client }) => objectOutput(await (await client()).deployments.get(id)),
  },
  'deployments events': {
    usage: 'deployments events <id>',
    summary: "Print a deployment's history, oldest first: its status changes and build-env reads.",
    args: ['id'],
    async run({ args: [id = ''], client }) {
      const history = await (await client()).deployments.listEvents(id);
      return { json: history, text: history.events.map(historyLine).join('\n') };
    },
  },
  'deployments wait': {
    usage: 'deployments wait <id> [--timeout <15m>]',
    summary: 'Wait until a deployment ends; exit 0 when it is ready, 1 otherwise or on a timeout.',
    args: ['id'],
    options: {
      timeout: {
        type: 'string',
        help: 'how long to wait, like 90s, 15m or 1h (default 15m); then exit 1 with timeout',
      },
    },
    async run({ args: [id = ''], flags, client, io, progress }) {
      const timeoutMs = duration(flags, 'timeout', '15m');
      const stillQueued = { afterMs: queuedNoticeMs(io.env), tell: progress };
      const deployment = await waitUntilTerminal(await client(), id, timeoutMs, stillQueued);
      // As `deploy --wait`: 0 once ready, 1 when it ended any other way.
      return { ...objectOutput(deployment), exitCode: deployment.status === 'ready' ? 0 : 1 };
    },
  },
  'deployments cancel': {
    usage: 'deployments cancel <id> [--yes]',
    summary: 'Cancel a queued or building deployment.',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      await confirm(`Cancel deployment ${id}?`);
      return objectOutput(await api.deployments.cancel(id));
    },
  },
};
