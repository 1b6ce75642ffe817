import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, defined, LIST_OPTIONS, string } from '../flags.ts';
import { listOutput, type Output } from '../output.ts';
import { projectId } from '../project-ref.ts';

// `platform promote`, `platform rollback` and `platform production history`: where a project's
// production points, and how it moved.

const MOVE_COLUMNS: (keyof Schemas['ProductionMove'])[] = [
  'at',
  'reason',
  'deploymentId',
  'previousDeploymentId',
  'keyId',
];

/** What a promote or rollback answers: the project, and in words where production now is. */
const productionOutput = (project: Schemas['Project']): Output => ({
  json: project,
  text: project.production
    ? `Production of ${project.name} is ${project.production.deploymentId} (${project.production.reason}, ${project.production.url ?? 'no url'}); automatic promotion ${project.autoPromotion ? 'on' : 'paused'}`
    : `Project ${project.name} has no production deployment`,
});

export const productionCommands: Commands = {
  promote: {
    usage: 'promote <project id or name> <deployment id>',
    summary: "Make a ready deployment the project's production, and turn automatic promotion back on.",
    args: ['project', 'deployment'],
    async run({ args: [project = '', deploymentId = ''], client }) {
      const api = await client();
      return productionOutput(await api.production.promote(await projectId(api, project), { deploymentId }));
    },
  },
  rollback: {
    usage: 'rollback <project id or name> [--to <deployment id>] [--yes]',
    summary: 'Put an earlier production deployment back; automatic promotion pauses until a promote.',
    args: ['project'],
    options: {
      to: {
        type: 'string',
        help: 'a ready deployment that was production before (default: the one before the current)',
      },
    },
    async run({ args: [project = ''], flags, client, confirm }) {
      const api = await client();
      const id = await projectId(api, project);
      const to = string(flags, 'to');
      await confirm(
        `Roll production of ${id} back to ${to ?? 'the deployment before the current one'}? Automatic promotion pauses until the next promote, which also undoes it.`,
      );
      return productionOutput(await api.production.rollback(id, defined({ deploymentId: to })));
    },
  },
  'production history': {
    usage: 'production history <project id or name> [--limit <n>]',
    summary: "List every move of a project's production, newest first, and why it moved.",
    args: ['project'],
    options: LIST_OPTIONS,
    async run({ args: [project = ''], flags, client }) {
      const api = await client();
      const items = api.production.listHistory(await projectId(api, project), { limit: 100 });
      return listOutput(await collect(items, flags), MOVE_COLUMNS);
    },
  },
};
