import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, defined, LIST_OPTIONS, list, required, string } from '../flags.ts';
import { listOutput, objectOutput } from '../output.ts';
import { projectId } from '../project-ref.ts';

// `platform env list|add|update|rm|pull`: a project's environment variables. A secret is never
// shown: the API never answers its value.

const VARIABLE_COLUMNS: (keyof Schemas['EnvironmentVariable'])[] = ['id', 'key', 'targets', 'type', 'value'];
type Target = Schemas['EnvironmentVariable']['targets'][number];

/** `KEY=value` lines a shell or a dotenv reader takes: values quoted, with `"`, `\` and newlines escaped. */
const dotenvLine = (key: string, value: string): string =>
  `${key}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

export const envCommands: Commands = {
  'env list': {
    usage: 'env list <project id or name> [--limit <n>]',
    args: ['project'],
    options: LIST_OPTIONS,
    async run({ args: [project = ''], flags, client }) {
      const api = await client();
      const items = api.environment.listVariables(await projectId(api, project), { limit: 100 });
      return listOutput(await collect(items, flags), VARIABLE_COLUMNS);
    },
  },
  'env add': {
    usage:
      'env add <project id or name> --key <KEY> --value <value> [--targets production,preview,development] [--secret]',
    args: ['project'],
    options: {
      key: { type: 'string' },
      value: { type: 'string' },
      targets: { type: 'string' },
      secret: { type: 'boolean' },
    },
    async run({ args: [project = ''], flags, client }) {
      const api = await client();
      const body = defined({
        key: required(flags, 'key'),
        value: required(flags, 'value'),
        targets: list(string(flags, 'targets')) as Target[] | undefined,
        type: flags.secret ? ('secret' as const) : undefined,
      });
      return objectOutput(await api.environment.createVariable(await projectId(api, project), body));
    },
  },
  'env update': {
    usage: 'env update <project id or name> <variable id> [--value <value>] [--targets <a,b>]',
    args: ['project', 'id'],
    options: { value: { type: 'string' }, targets: { type: 'string' } },
    async run({ args: [project = '', id = ''], flags, client }) {
      const api = await client();
      const body = defined({
        value: string(flags, 'value'),
        targets: list(string(flags, 'targets')) as Target[] | undefined,
      });
      return objectOutput(await api.environment.updateVariable(await projectId(api, project), id, body));
    },
  },
  'env rm': {
    usage: 'env rm <project id or name> <variable id> [--yes]',
    args: ['project', 'id'],
    async run({ args: [project = '', id = ''], client, confirm }) {
      const api = await client();
      const projectOf = await projectId(api, project);
      await confirm(`Delete environment variable ${id}?`);
      await api.environment.deleteVariable(projectOf, id);
      return { json: { id, deleted: true }, text: `Deleted environment variable ${id}` };
    },
  },
  'env pull': {
    usage: 'env pull <project id or name> [--target development|preview|production]',
    args: ['project'],
    options: { target: { type: 'string' } },
    async run({ args: [project = ''], flags, client }) {
      const api = await client();
      const target = (string(flags, 'target') ?? 'development') as Target;
      const variables: Record<string, string> = {};
      const secrets: string[] = [];
      for await (const variable of api.environment.listVariables(await projectId(api, project), {
        limit: 100,
      })) {
        if (!variable.targets.includes(target)) continue;
        // A secret is never readable back: it is named, not written as an empty value.
        if (variable.value === undefined) secrets.push(variable.key);
        else variables[variable.key] = variable.value;
      }
      const note = secrets.length ? `# not readable (secrets): ${secrets.join(', ')}\n` : '';
      const lines = Object.entries(variables).map(([key, value]) => dotenvLine(key, value));
      return { json: { target, variables, secrets }, text: `${note}${lines.join('\n')}` };
    },
  },
};
