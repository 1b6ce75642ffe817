import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { PlatformClient, PlatformError, type Schemas } from '@platform-api/client';
import { type Credentials, forgetCredentials, readCredentials, writeCredentials } from './credentials.ts';
import { followLogs, type LogLine, readLogs } from './follow-logs.ts';
import { ask, askHidden, cell, fields, interactive, table } from './terminal.ts';

// `platform <command> [<subcommand>] [arguments] [flags]`: every command takes --json (then stdout
// holds exactly one JSON document, errors included) and prints readable text without it. Exit codes:
// 0 done, 1 the API answered an error (or a deployment failed, or a wait timed out), 2 the CLI
// refused (usage_error, not_logged_in).

const DEFAULT_API_URL = 'http://localhost:3000/v1';
const TERMINAL = new Set(['ready', 'error', 'canceled']);

type Flags = Record<string, string | boolean | undefined>;
type Option = { type: 'string' | 'boolean'; short?: string };

interface Context {
  flags: Flags;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** The client with the key in effect; throws not_logged_in when there is none. */
  client(): Promise<PlatformClient>;
  /** A client without a key, on the servers in effect. */
  anonymous(): Promise<PlatformClient>;
  /** Asks before something that cannot be undone, unless --yes; refuses without a terminal. */
  confirm(what: string): Promise<void>;
}

/** What a command answers: the JSON document and its readable text. */
interface Output {
  json: unknown;
  text: string;
  exitCode?: number;
}

interface Command {
  usage: string;
  args?: string[];
  options?: Record<string, Option>;
  run(context: Context): Promise<Output>;
}

/** An error of the CLI itself, in the API's error shape; exit code 2 unless it stands for an API answer. */
export class CliError extends Error {
  readonly code: 'usage_error' | 'not_logged_in' | 'not_found' | 'timeout';
  readonly exitCode: number;

  constructor(code: CliError['code'], message: string, exitCode = 2) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}

const GLOBAL_OPTIONS: Record<string, Option> = {
  json: { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
  help: { type: 'boolean', short: 'h' },
  'api-url': { type: 'string' },
  'backend-url': { type: 'string' },
};
const LIST_OPTIONS: Record<string, Option> = { limit: { type: 'string' } };

const string = (flags: Flags, name: string): string | undefined => {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
};
const required = (flags: Flags, name: string): string => {
  const value = string(flags, name);
  if (value === undefined) throw new CliError('usage_error', `--${name} is required`);
  return value;
};
const integer = (flags: Flags, name: string): number | undefined => {
  const value = string(flags, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new CliError('usage_error', `--${name} must be a whole number, not ${value}`);
  return Number(value);
};
const list = (value: string | undefined) => value?.split(',').map((item) => item.trim());
/** Keeps the fields that were given, so that PATCH and POST bodies carry no undefined. */
const defined = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** Collects a list's items, every page or the first --limit. */
async function collect<T>(items: AsyncIterable<T>, flags: Flags): Promise<T[]> {
  const limit = integer(flags, 'limit') ?? Number.POSITIVE_INFINITY;
  const all: T[] = [];
  if (limit === 0) return all;
  for await (const item of items) {
    all.push(item);
    if (all.length >= limit) break;
  }
  return all;
}

const listOutput = <T extends object>(items: T[], columns: (keyof T & string)[]): Output => ({
  json: items,
  text: table(
    columns,
    items.map((item) => columns.map((column) => cell(item[column]))),
  ),
});
const objectOutput = (value: object): Output => ({
  json: value,
  text: fields(value as Record<string, unknown>),
});

const PROJECT_COLUMNS: (keyof Schemas['Project'])[] = [
  'id',
  'name',
  'repository',
  'productionBranch',
  'createdAt',
];
const DEPLOYMENT_COLUMNS: (keyof Schemas['Deployment'])[] = [
  'id',
  'projectId',
  'branch',
  'target',
  'status',
  'createdAt',
];
const KEY_COLUMNS: (keyof Schemas['ApiKey'])[] = ['id', 'name', 'prefix', 'last4', 'scopes', 'expiresAt'];
const WEBHOOK_COLUMNS: (keyof Schemas['Webhook'])[] = ['id', 'url', 'events', 'enabled'];
const MOVE_COLUMNS: (keyof Schemas['ProductionMove'])[] = [
  'at',
  'reason',
  'deploymentId',
  'previousDeploymentId',
  'keyId',
];
type DeploymentTarget = Schemas['Deployment']['target'];

/** What a promote or rollback answers: the project, and in words where production now is. */
const productionOutput = (project: Schemas['Project']): Output => ({
  json: project,
  text: project.production
    ? `Production of ${project.id} is ${project.production.deploymentId} (${project.production.reason}, ${project.production.url ?? 'no url'}); automatic promotion ${project.autoPromotion ? 'on' : 'paused'}`
    : `Project ${project.id} has no production deployment`,
});
const VARIABLE_COLUMNS: (keyof Schemas['EnvironmentVariable'])[] = ['id', 'key', 'targets', 'type', 'value'];
type Target = Schemas['EnvironmentVariable']['targets'][number];

/** `KEY=value` lines a shell or a dotenv reader takes: values quoted, with `"`, `\` and newlines escaped. */
const dotenvLine = (key: string, value: string): string =>
  `${key}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

/** `15m`, `90s`, `1h`, `500ms`, or seconds. */
function duration(text: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text);
  if (!match) throw new CliError('usage_error', `--timeout must be like 90s, 15m or 1h, not ${text}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1000;
  return Number(match[1]) * unit;
}

/** A project's id from its id or its name. */
async function projectId(client: PlatformClient, idOrName: string): Promise<string> {
  if (idOrName.startsWith('prj_')) return idOrName;
  const named: string[] = [];
  for await (const project of client.projects.list({ limit: 100 })) {
    if (project.name === idOrName) named.push(project.id);
  }
  if (named.length > 1) {
    throw new CliError(
      'usage_error',
      `${named.length} projects are named ${idOrName}: give its id (${named.join(', ')})`,
    );
  }
  const [id] = named;
  if (!id) throw new CliError('not_found', `No project with the id or name ${idOrName}`, 1);
  return id;
}

/**
 * Follows a deployment until it is ready, failed or canceled, or until the deadline: its events are
 * printed as they happen (the log lines), on stderr when stdout is for --json.
 */
async function follow(client: PlatformClient, id: string, timeoutMs: number, log: (line: string) => void) {
  const deadline = Date.now() + timeoutMs;
  const pollMs = Number(process.env.PLATFORM_POLL_MS) || 1000;
  let seen = 0;
  const printEvents = async () => {
    const { events } = await client.deployments.listEvents(id);
    for (const event of events.slice(seen)) {
      // The history holds status changes and, since environment variables, reads of build-env.
      if ('status' in event) log(`${event.at}  ${event.status}${event.message ? `  ${event.message}` : ''}`);
      else log(`${event.at}  ${event.type} by ${event.keyId}`);
    }
    seen = Math.max(seen, events.length);
  };
  for (;;) {
    await printEvents();
    const deployment = await client.deployments.get(id);
    if (TERMINAL.has(deployment.status)) {
      await printEvents(); // the events up to the last one, which may have come after the first read
      return deployment;
    }
    if (Date.now() >= deadline) {
      throw new CliError(
        'timeout',
        `Deployment ${id} is still ${deployment.status} after ${timeoutMs / 1000} s`,
        1,
      );
    }
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
  }
}

const commands: Record<string, Command> = {
  login: {
    usage: 'login [--email <email>] [--password <password>] [--print-key]',
    options: { email: { type: 'string' }, password: { type: 'string' }, 'print-key': { type: 'boolean' } },
    async run({ flags, env, anonymous }) {
      let email = string(flags, 'email') ?? env.PLATFORM_EMAIL;
      let password = string(flags, 'password') ?? env.PLATFORM_PASSWORD;
      if ((!email || !password) && !interactive()) {
        throw new CliError(
          'usage_error',
          'Give --email and --password (or PLATFORM_EMAIL and PLATFORM_PASSWORD): there is no terminal to ask on',
        );
      }
      email ||= await ask('Email: ');
      password ||= await askHidden('Password: ');
      const client = await anonymous();
      const result = await client.auth.login({ email, password });
      const path = await writeCredentials(env, {
        apiKey: result.apiKey,
        baseUrl: client.baseUrl,
        backendUrl: client.backendUrl,
        email: result.user.email,
        expiresAt: result.expiresAt,
      });
      const { apiKey, ...shown } = result;
      return {
        json: flags['print-key'] ? result : shown,
        text: `Logged in as ${result.user.email}; the key expires ${result.expiresAt} and is stored in ${path}${flags['print-key'] ? `\n${apiKey}` : ''}`,
      };
    },
  },
  logout: {
    usage: 'logout',
    async run({ env, client }) {
      const api = await client();
      let revoked = true;
      try {
        await api.auth.logout();
      } catch (error) {
        // Expired or already revoked: nothing is left to revoke, the local copy still goes.
        if (!(error instanceof PlatformError && error.status === 401)) throw error;
        revoked = false;
      }
      await forgetCredentials(env);
      return {
        json: { loggedOut: true, revoked },
        text: revoked
          ? 'Logged out: the key is revoked and forgotten'
          : 'Logged out: the key had already expired',
      };
    },
  },
  'projects list': {
    usage: 'projects list [--limit <n>]',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).projects.list({ limit: 100 }), flags), PROJECT_COLUMNS),
  },
  'projects get': {
    usage: 'projects get <id or name>',
    args: ['project'],
    async run({ args: [project = ''], client }) {
      const api = await client();
      return objectOutput(await api.projects.get(await projectId(api, project)));
    },
  },
  'projects create': {
    usage: 'projects create --name <name> [--repository <owner/name>] [--production-branch <branch>]',
    options: {
      name: { type: 'string' },
      repository: { type: 'string' },
      'production-branch': { type: 'string' },
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
    args: ['id'],
    options: {
      name: { type: 'string' },
      repository: { type: 'string' },
      'production-branch': { type: 'string' },
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
    args: ['project'],
    async run({ args: [project = ''], client, confirm }) {
      const api = await client();
      const id = await projectId(api, project);
      await confirm(`Delete project ${id} with all its deployments?`);
      await api.projects.delete(id);
      return { json: { id, deleted: true }, text: `Deleted project ${id}` };
    },
  },
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
    async run({ args: [project = ''], flags, client }) {
      const timeoutMs = duration(string(flags, 'timeout') ?? '15m');
      const api = await client();
      const created = await api.deployments.create(
        defined({
          projectId: await projectId(api, project),
          branch: string(flags, 'branch'),
          target: string(flags, 'target') as DeploymentTarget | undefined,
        }),
      );
      if (!flags.wait) return objectOutput(created);
      const log = (line: string) => (flags.json ? process.stderr : process.stdout).write(`${line}\n`);
      const deployment = await follow(api, created.id, timeoutMs, log);
      return { ...objectOutput(deployment), exitCode: deployment.status === 'ready' ? 0 : 1 };
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
  promote: {
    usage: 'promote <project id or name> <deployment id>',
    args: ['project', 'deployment'],
    async run({ args: [project = '', deploymentId = ''], client }) {
      const api = await client();
      return productionOutput(await api.production.promote(await projectId(api, project), { deploymentId }));
    },
  },
  rollback: {
    usage: 'rollback <project id or name> [--to <deployment id>] [--yes]',
    args: ['project'],
    options: { to: { type: 'string' } },
    async run({ args: [project = ''], flags, client, confirm }) {
      const api = await client();
      const id = await projectId(api, project);
      const to = string(flags, 'to');
      await confirm(
        `Roll production of ${id} back to ${to ?? 'the deployment before the current one'}? Automatic promotion pauses until the next promote.`,
      );
      return productionOutput(await api.production.rollback(id, defined({ deploymentId: to })));
    },
  },
  'production history': {
    usage: 'production history <project id or name> [--limit <n>]',
    args: ['project'],
    options: LIST_OPTIONS,
    async run({ args: [project = ''], flags, client }) {
      const api = await client();
      const items = api.production.listHistory(await projectId(api, project), { limit: 100 });
      return listOutput(await collect(items, flags), MOVE_COLUMNS);
    },
  },
  logs: {
    usage: 'logs <deployment id> [--follow] [--since <seq>] [--limit <n>]',
    args: ['deployment'],
    options: { ...LIST_OPTIONS, follow: { type: 'boolean', short: 'f' }, since: { type: 'string' } },
    async run({ args: [id = ''], flags, client }) {
      const api = await client();
      const since = integer(flags, 'since');
      const shown = (line: LogLine) => `${line.at}  ${line.stream === 'stderr' ? 'ERR ' : ''}${line.text}`;
      if (!flags.follow) {
        const lines = await readLogs(
          api,
          id,
          since ?? 0,
          integer(flags, 'limit') ?? Number.POSITIVE_INFINITY,
        );
        return { json: { lines }, text: lines.map(shown).join('\n') };
      }
      // The lines as they come, on stderr when stdout is for --json; then the final status.
      const lines: LogLine[] = [];
      const out = flags.json ? process.stderr : process.stdout;
      const status = await followLogs(api, id, since ?? 0, (line) => {
        lines.push(line);
        out.write(`${shown(line)}\n`);
      });
      return {
        json: { id, status, lines: lines.length },
        text: `Deployment ${id} is ${status}`,
        exitCode: status === 'ready' ? 0 : 1,
      };
    },
  },
  'keys list': {
    usage: 'keys list [--limit <n>]',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).keys.list({ limit: 100 }), flags), KEY_COLUMNS),
  },
  'keys create': {
    usage: 'keys create --name <name> [--scopes read,write,build] [--expires-in-days <n>]',
    options: { name: { type: 'string' }, scopes: { type: 'string' }, 'expires-in-days': { type: 'string' } },
    async run({ flags, client }) {
      const body = defined({
        name: required(flags, 'name'),
        scopes: list(string(flags, 'scopes')) as Schemas['CreateKeyBody']['scopes'],
        expiresInDays: integer(flags, 'expires-in-days'),
      });
      const created = await (await client()).keys.create(body);
      return {
        json: created,
        text: `${fields(created.key)}\n\nThe key (shown this once):\n${created.apiKey}`,
      };
    },
  },
  'keys revoke': {
    usage: 'keys revoke <id> [--yes]',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      await confirm(`Revoke key ${id}?`);
      await api.keys.revoke(id);
      return { json: { id, revoked: true }, text: `Revoked key ${id}` };
    },
  },
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
  'webhooks list': {
    usage: 'webhooks list [--limit <n>]',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).webhooks.list({ limit: 100 }), flags), WEBHOOK_COLUMNS),
  },
  'webhooks create': {
    usage: 'webhooks create --url <https://...> --events <a,b> [--description <text>]',
    options: { url: { type: 'string' }, events: { type: 'string' }, description: { type: 'string' } },
    async run({ flags, client }) {
      const body = defined({
        url: required(flags, 'url'),
        events: list(required(flags, 'events')) as Schemas['CreateWebhookBody']['events'],
        description: string(flags, 'description'),
      });
      const created = await (await client()).webhooks.create(body);
      return {
        json: created,
        text: `${fields(created.webhook)}\n\nThe signing secret (shown this once):\n${created.secret}`,
      };
    },
  },
  'webhooks delete': {
    usage: 'webhooks delete <id> [--yes]',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      await confirm(`Delete webhook ${id}?`);
      await api.webhooks.delete(id);
      return { json: { id, deleted: true }, text: `Deleted webhook ${id}` };
    },
  },
  'webhooks test': {
    usage: 'webhooks test <id>',
    args: ['id'],
    run: async ({ args: [id = ''], client }) => objectOutput(await (await client()).webhooks.test(id)),
  },
};

const version = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;

function help(): string {
  return [
    'platform: the platform API from a terminal',
    '',
    'Usage: platform <command> [arguments] [flags]',
    '',
    ...Object.values(commands).map((command) => `  platform ${command.usage}`),
    '',
    'Every command takes:',
    '  --json                 print exactly one JSON document on stdout (errors too)',
    '  --yes, -y              do what cannot be undone without asking',
    '  --api-url <url>        {base_url}, ending in /v1 (PLATFORM_API_URL; default http://localhost:3000/v1)',
    '  --backend-url <url>    {backend_url} (PLATFORM_BACKEND_URL; default: the API URL without /v1)',
    '',
    'The key: PLATFORM_API_KEY, else the one `platform login` stored in',
    '$XDG_CONFIG_HOME/platform/credentials.json (~/.config when unset).',
    'Exit codes: 0 done, 1 an API error or a failed deployment, 2 a usage error or not logged in.',
  ].join('\n');
}

/** Finds the command: its one or two words come first, global flags may precede them. */
function findCommand(argv: string[]): { name: string; rest: string[] } | undefined {
  const words: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i += 1) {
    const token = argv[i] ?? '';
    if (token === '--api-url' || token === '--backend-url') i += 1;
    else if (!token.startsWith('-')) words.push(i);
  }
  const [first, second] = words.map((i) => argv[i] ?? '');
  for (const name of [`${first} ${second}`, first]) {
    if (name && name in commands) {
      const used = new Set(words.slice(0, name.split(' ').length));
      return { name, rest: argv.filter((_, i) => !used.has(i)) };
    }
  }
  return undefined;
}

/** Runs one command line; returns the exit code. */
export async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const json = argv.includes('--json');
  const print = (output: Output) => {
    process.stdout.write(`${json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
  };
  try {
    if (argv.includes('--version')) {
      print({ json: { version: version() }, text: version() });
      return 0;
    }
    const found = findCommand(argv);
    if (!found) {
      if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
        print({ json: { usage: help() }, text: help() });
        return 0;
      }
      throw new CliError('usage_error', `Unknown command: platform ${argv.join(' ')} (see platform --help)`);
    }
    const command = commands[found.name] as Command;
    const parsed = (() => {
      try {
        return parseArgs({
          args: found.rest,
          options: { ...GLOBAL_OPTIONS, ...command.options },
          allowPositionals: true,
          strict: true,
        });
      } catch (error) {
        throw new CliError('usage_error', `${(error as Error).message} (usage: platform ${command.usage})`);
      }
    })();
    const flags = parsed.values as Flags;
    if (flags.help) {
      print({ json: { usage: `platform ${command.usage}` }, text: `Usage: platform ${command.usage}` });
      return 0;
    }
    if (parsed.positionals.length !== (command.args?.length ?? 0)) {
      throw new CliError('usage_error', `Usage: platform ${command.usage}`);
    }
    const output = await command.run(context(flags, parsed.positionals, env));
    print(output);
    return output.exitCode ?? 0;
  } catch (error) {
    return fail(error, json);
  }
}

function context(flags: Flags, args: string[], env: NodeJS.ProcessEnv): Context {
  let stored: Promise<Credentials | undefined> | undefined;
  const credentials = () => {
    stored ??= readCredentials(env);
    return stored;
  };
  const servers = async () => {
    const saved = await credentials();
    const apiUrl = string(flags, 'api-url') ?? env.PLATFORM_API_URL;
    const backendUrl = string(flags, 'backend-url') ?? env.PLATFORM_BACKEND_URL;
    if (apiUrl) return { baseUrl: apiUrl, ...(backendUrl ? { backendUrl } : {}) };
    return {
      baseUrl: saved?.baseUrl ?? DEFAULT_API_URL,
      ...(backendUrl || saved ? { backendUrl: backendUrl ?? saved?.backendUrl } : {}),
    };
  };
  return {
    flags,
    args,
    env,
    anonymous: async () => new PlatformClient(await servers()),
    async client() {
      const apiKey = env.PLATFORM_API_KEY || (await credentials())?.apiKey;
      if (!apiKey)
        throw new CliError('not_logged_in', 'Not logged in: run `platform login`, or set PLATFORM_API_KEY');
      return new PlatformClient({ ...(await servers()), apiKey });
    },
    async confirm(what) {
      if (flags.yes) return;
      if (!interactive()) {
        throw new CliError(
          'usage_error',
          `${what} This cannot be undone: pass --yes (there is no terminal to ask on)`,
        );
      }
      if (!/^y(es)?$/i.test(await ask(`${what} [y/N] `)))
        throw new CliError('usage_error', 'Not confirmed: nothing done');
    },
  };
}

/** Prints an error (the API's body, or the CLI's in the same shape) and returns its exit code. */
function fail(error: unknown, json: boolean): number {
  let body: Record<string, unknown>;
  let exitCode = 1;
  let detail = '';
  if (error instanceof PlatformError) {
    body = error.body;
    detail = ` (HTTP ${error.status}${error.requestId ? `, request ${error.requestId}` : ''})`;
  } else if (error instanceof CliError) {
    body = { error: error.code, message: error.message };
    exitCode = error.exitCode;
  } else if (error instanceof TypeError && error.cause) {
    // fetch's own failure: nothing answered at that address.
    const cause = (error.cause as { code?: string }).code;
    body = { error: 'connection_error', message: `${error.message}${cause ? ` (${cause})` : ''}` };
  } else {
    body = { error: 'cli_error', message: error instanceof Error ? error.message : String(error) };
  }
  if (json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  else
    process.stderr.write(
      `Error: ${error instanceof PlatformError ? error.message : String(body.message)}${detail}\n`,
    );
  return exitCode;
}
