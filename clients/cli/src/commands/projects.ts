import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, defined, LIST_OPTIONS, required, string } from '../flags.ts';
import { listOutput, objectOutput } from '../output.ts';
import { projectId } from '../project-ref.ts';

// `platform projects list|get|create|update|delete`.

const PROJECT_COLUMNS: (keyof Schemas['Project'])[] = [
  'id',
  'name',
  'repository',
  'productionBranch',
  'createdAt',
];

export const projectCommands: Commands = {
  'projects list': {
    usage: 'projects list [--limit <n>]',
    summary: 'List the projects of the team in effect, newest first.',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).projects.list({ limit: 100 }), flags), PROJECT_COLUMNS),
  },
  'projects get': {
    usage: 'projects get <id or name>',
    summary: 'Show one project, by its id or name.',
    args: ['project'],
    async run({ args: [project = ''], client }) {
      const api = await client();
      return objectOutput(await api.projects.get(await projectId(api, project)));
    },
  },
  'projects create': {
    usage: 'projects create --name <name> [--repository <owner/name>] [--production-branch <branch>]',
    summary: 'Create a project in the team in effect.',
    options: {
      name: { type: 'string', help: "the project's name, 1 to 100 characters" },
      repository: {
        type: 'string',
        help: 'its git repository: owner/name or an https:// URL (default: none)',
      },
      'production-branch': {
        type: 'string',
        help: 'the branch whose deployments go to production (default main)',
      },
    },
    run: async ({ flags, client }) =>
      objectOutput(
        await (await client()).projects.create(
          defined({
            name: required(flags, 'name'),
            repository: string(flags, 'repository'),
            productionBranch: string(flags, 'production-branch'),
          }),
        ),
      ),
  },
  'projects update': {
    usage: 'projects update <id> [--name <name>] [--repository <owner/name>] [--production-branch <branch>]',
    summary: "Change a project's name, repository or production branch.",
    args: ['id'],
    options: {
      name: { type: 'string', help: 'rename the project, 1 to 100 characters' },
      repository: { type: 'string', help: 'its new git repository: owner/name or an https:// URL' },
      'production-branch': {
        type: 'string',
        help: 'the branch whose deployments go to production from now on',
      },
    },
    run: async ({ args: [id = ''], flags, client }) =>
      objectOutput(
        await (await client()).projects.update(
          id,
          defined({
            name: string(flags, 'name'),
            repository: string(flags, 'repository'),
            productionBranch: string(flags, 'production-branch'),
          }),
        ),
      ),
  },
  'projects delete': {
    usage: 'projects delete <id or name> [--yes]',
    summary: 'Delete a project with its deployments, build logs and environment variables.',
    args: ['project'],
    async run({ args: [project = ''], client, confirm }) {
      const api = await client();
      const id = await projectId(api, project);
      await confirm(`Delete project ${id} with all its deployments?`);
      await api.projects.delete(id);
      return { json: { id, deleted: true }, text: `Deleted project ${id}` };
    },
  },
};
