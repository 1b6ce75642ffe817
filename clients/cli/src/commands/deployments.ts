import type { Schemas } from '@platform-api/client';
import { eventLine, followBuild } from '../build-log.ts';
import type { Commands } from '../command.ts';
import { collect, defined, duration, LIST_OPTIONS, string } from '../flags.ts';
import { listOutput, objectOutput } from '../output.ts';
import { projectId } from '../project-ref.ts';

// `platform deploy` (with --wait, the build as it happens) and `platform deployments list|get|cancel`.

const DEPLOYMENT_COLUMNS: (keyof Schemas['Deployment'])[] = [
  'id',
  'projectId',
  'branch',
  'target',
  'status',
  'createdAt',
];
type DeploymentTarget = Schemas['Deployment']['target'];

export const deploymentCommands: Commands = {
  deploy: {
    usage:
      'deploy <project id or name> [--branch <branch>] [--target production|preview] [--wait] [--timeout <15m>]',
    args: ['project'],
    options: {
      branch: { type: 'string' },
      target: { type: 'string' },
      wait: { type: 'boolean' },
      timeout: { type: 'string' },
    },
    async run({ args: [project = ''], flags, client, progress }) {
      const timeoutMs = duration(flags, 'timeout', '15m');
      const api = await client();
      const created = await api.deployments.create(
        defined({
          projectId: await projectId(api, project),
          branch: string(flags, 'branch'),
          target: string(flags, 'target') as DeploymentTarget | undefined,
        }),
      );
      if (!flags.wait) return objectOutput(created);
      // The build's statuses and log lines as they come (on stderr with --json), then the deployment.
      const status = await followBuild(api, created.id, {
        timeoutMs,
        print: (event) => progress(eventLine(event)),
      });
      return { ...objectOutput(await api.deployments.get(created.id)), exitCode: status === 'ready' ? 0 : 1 };
    },
  },
  'deployments list': {
    usage:
      'deployments list [--project <id or name>] [--status <a,b>] [--branch <branch>] [--target production|preview] [--limit <n>]',
    options: {
      ...LIST_OPTIONS,
      project: { type: 'string' },
      status: { type: 'string' },
      branch: { type: 'string' },
      target: { type: 'string' },
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
    args: ['id'],
    run: async ({ args: [id = ''], client }) => objectOutput(await (await client()).deployments.get(id)),
  },
  'deployments cancel': {
    usage: 'deployments cancel <id> [--yes]',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      await confirm(`Cancel deployment ${id}?`);
      return objectOutput(await api.deployments.cancel(id));
    },
  },
};
