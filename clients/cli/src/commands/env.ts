import { readFile } from 'node:fs/promises';
import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { dotenvLine, parseDotenv } from '../dotenv.ts';
import { CliError, collect, defined, LIST_OPTIONS, list, type Option, required, string } from '../flags.ts';
import type { IO } from '../io.ts';
import { listOutput, objectOutput, table } from '../output.ts';
import { projectId } from '../project-ref.ts';
import { variableId } from '../variable-ref.ts';

// `platform env list|add|update|rm|pull|replace`: a project's environment variables. A secret is
// never shown: the API never answers its value.

/** Which of a key's variables, where it has one per target. */
const TARGET_CHOICE: Option = {
  type: 'string',
  help: 'with a key that has one variable per target: the one that applies to this target',
};

const VARIABLE_COLUMNS: (keyof Schemas['EnvironmentVariable'])[] = ['id', 'key', 'targets', 'type', 'value'];
type Target = Schemas['EnvironmentVariable']['targets'][number];
type NewVariable = Schemas['ReplaceEnvironmentBody']['variables'][number];

/** A `.env` file's text, or stdin's for `-`. */
async function readEnvFile(file: string, io: IO): Promise<string> {
  if (file === '-') {
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of io.stdin ?? []) {
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    }
    return text + decoder.decode();
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError('usage_error', `Cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The new set from a `.env` text: every key once, with the targets given, the keys named by --secrets secret. */
function variablesOf(text: string, where: string, targets: Target[] | undefined, secret: string[]) {
  const entries = parseDotenv(text, where);
  const lineOf = new Map<string, number>();
  for (const { key, line } of entries) {
    const first = lineOf.get(key);
    // Every item gets the same targets, so a key given twice would overlap itself (a 409).
    if (first !== undefined)
      throw new CliError('usage_error', `${where}: ${key} is given twice (lines ${first} and ${line})`);
    lineOf.set(key, line);
  }
  const unknown = secret.filter((key) => !lineOf.has(key));
  if (unknown.length > 0)
    throw new CliError('usage_error', `--secrets names keys ${where} does not have: ${unknown.join(', ')}`);
  return entries.map(
    ({ key, value }): NewVariable =>
      defined({
        key,
        value,
        targets,
        type: secret.includes(key) ? ('secret' as const) : undefined,
      }),
  );
}

export const envCommands: Commands = {
  'env list': {
    usage: 'env list <project id or name> [--limit <n>]',
    summary: "List a project's environment variables (a secret's value never).",
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
    summary: 'Add an environment variable to a project.',
    args: ['project'],
    options: {
      key: { type: 'string', help: "the variable's name: letters, digits and _, not starting with a digit" },
      value: { type: 'string', help: "the variable's value, at most 16 KiB" },
      targets: {
        type: 'string',
        help: 'where it applies, comma-separated: production, preview, development (default: all three)',
      },
      secret: {
        type: 'boolean',
        help: 'make it a secret: its value is never shown again, only builds read it',
      },
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
    usage:
      'env update <project id or name> <variable id or key> [--value <value>] [--targets <a,b>] [--target <t>]',
    summary: "Change an environment variable's value or targets.",
    args: ['project', 'id'],
    options: {
      value: { type: 'string', help: "the variable's new value, at most 16 KiB" },
      targets: {
        type: 'string',
        help: 'where it applies from now on, comma-separated: production, preview, development',
      },
      target: TARGET_CHOICE,
    },
    async run({ args: [project = '', ref = ''], flags, client }) {
      const api = await client();
      const body = defined({
        value: string(flags, 'value'),
        targets: list(string(flags, 'targets')) as Target[] | undefined,
      });
      const projectOf = await projectId(api, project);
      const id = await variableId(api, projectOf, ref, string(flags, 'target'));
      return objectOutput(await api.environment.updateVariable(projectOf, id, body));
    },
  },
  'env rm': {
    usage: 'env rm <project id or name> <variable id or key> [--target <t>] [--yes]',
    summary: 'Delete an environment variable of a project.',
    args: ['project', 'id'],
    options: { target: TARGET_CHOICE },
    async run({ args: [project = '', ref = ''], flags, client, confirm }) {
      const api = await client();
      const projectOf = await projectId(api, project);
      const id = await variableId(api, projectOf, ref, string(flags, 'target'));
      await confirm(`Delete environment variable ${ref === id ? id : `${ref} (${id})`}?`);
      await api.environment.deleteVariable(projectOf, id);
      return { json: { id, deleted: true }, text: `Deleted environment variable ${id}` };
    },
  },
  'env pull': {
    usage: 'env pull <project id or name> [--target development|preview|production]',
    summary: "Print a target's plain variables as .env lines, naming its secrets in a comment.",
    args: ['project'],
    options: {
      target: {
        type: 'string',
        help: 'whose variables to print: development, preview or production (default development)',
      },
    },
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
  'env replace': {
    usage:
      'env replace <project id or name> --file <.env file, or - for stdin> [--targets production,preview,development] [--secrets <KEY,...>] [--yes]',
    summary: "Replace all of a project's variables with those of a .env file, in one atomic step.",
    args: ['project'],
    options: {
      file: { type: 'string', help: 'the .env file to put in place of the whole set, or - to read stdin' },
      targets: {
        type: 'string',
        help: "every variable's targets, comma-separated (default: production, preview, development)",
      },
      secrets: {
        type: 'string',
        help: 'the keys to make secrets, comma-separated (each must be in the file)',
      },
    },
    async run({ args: [project = ''], flags, io, client, confirm }) {
      const file = required(flags, 'file');
      const where = file === '-' ? 'stdin' : file;
      const targets = list(string(flags, 'targets')) as Target[] | undefined;
      const secret = list(string(flags, 'secrets'))?.filter(Boolean) ?? [];
      // The file is read and checked before any request: a mistake in it changes nothing.
      const variables = variablesOf(await readEnvFile(file, io), where, targets, secret);
      const api = await client();
      const id = await projectId(api, project);
      await confirm(
        `Replace every environment variable of ${project} with the ${variables.length} of ${where}?`,
      );
      const replaced = await api.environment.replaceVariables(id, { variables });
      // The values were just sent: none is printed back, plain ones included.
      const shown = replaced.variables.map(({ value: _value, ...variable }) => variable);
      return {
        json: { variables: shown },
        text: table(
          ['id', 'key', 'targets', 'type'],
          shown.map((variable) => [variable.id, variable.key, variable.targets.join(','), variable.type]),
        ),
      };
    },
  },
};
