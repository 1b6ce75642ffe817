import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '@platform-api/client';
import { startLocalBuilder } from '../../../infra/local/builder.ts';
import { freePort } from '../../../infra/local/dynamodb-local.ts';
import { type LocalWebhookQueue, startLocalWebhookQueue } from '../../../infra/local/webhook-queue.ts';
import { deliverySettings } from '../../../shared/webhooks/settings.ts';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newCaller } from '../../../test/support/users.ts';
import { commands } from '../src/commands/index.ts';
import { GLOBAL_OPTIONS } from '../src/flags.ts';
import { type Env, inProcessCli } from './support/in-process.ts';

// The CLI against the local gateway over HTTP, with a config folder of its own; every --json output
// is parsed and checked. The commands run in this process with recording streams (support/in-process.ts):
// a Node process per command cost a second of CPU each. The first test runs `platform` as the user
// does, its own process, to show what main.ts wires up: exit codes, stdout and stdin.

const MAIN = join(import.meta.dirname, '..', 'src', 'main.ts');
// A test of ten commands against a gateway on two busy cores.
/** `text` as a regular expression matching itself. */
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const slowly = (name: string, test: () => Promise<void>) => it(name, test, 60_000);

let gateway: TestGateway;
let home: string;
let queue: LocalWebhookQueue;
beforeAll(async () => {
  gateway = await startGateway();
  queue = startLocalWebhookQueue(deliverySettings()); // where `webhooks test` puts its ping
  home = await mkdtemp(join(tmpdir(), 'platform-cli-'));
});
afterAll(async () => {
  await queue.stop();
  await gateway.close();
  await rm(home, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed: the one JSON document a --json command prints. */
  json: unknown;
}

const parsed = (code: number, stdout: string, stderr: string): Run => {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {}
  return { code, stdout, stderr, json };
};

/** The gateway's URLs and a config folder (CONFIG names it), then `env`. */
const environment = (env: Env): Env => ({
  HOME: home,
  XDG_CONFIG_HOME: join(home, env.CONFIG ?? 'config'),
  PLATFORM_API_URL: gateway.baseUrl,
  PLATFORM_BACKEND_URL: gateway.backendUrl,
  ...env,
});

const { platformText } = inProcessCli(() => gateway);

/** Runs `platform <args>` with the environment above and `stdin` piped in. */
async function platform(args: string[], env: Env = {}, stdin?: string): Promise<Run> {
  const { code, out, err } = await platformText(environment(env), args, stdin);
  return parsed(code, out, err);
}

/** The same, as the user runs it: `platform` a process of its own, stdin not a terminal. */
function platformProcess(args: string[], env: Env = {}, stdin = ''): Promise<Run> {
  const variables = {
    PATH: process.env.PATH ?? '',
    // Node's own, not the CLI's: the run's compile cache (test/support/global-setup.ts).
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
    ...environment(env),
  };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [MAIN, ...args], { env: variables }, (error, stdout, stderr) =>
      resolve(parsed(error ? Number(error.code) : 0, stdout, stderr)),
    );
    child.stdin?.end(stdin);
  });
}

const asKey = async (options: Parameters<typeof newCaller>[0] = {}) => {
  const caller = await newCaller(options);
  return { ...caller, env: { PLATFORM_API_KEY: caller.key } };
};

describe('platform', () => {
  slowly(
    'as its own process: prints its usage, and refuses an unknown command or flag with usage_error and exit code 2',
    async () => {
      const help = await platformProcess(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(
        'platform deploy <project id or name> [--branch <branch>] [--target production|preview] [--wait]',
      );
      expect(await platformProcess(['frobnicate', '--json'])).toMatchObject({
        code: 2,
        json: { error: 'usage_error', message: expect.stringContaining('Unknown command') },
      });
      expect(await platform(['projects', 'list', '--colour', '--json'])).toMatchObject({
        code: 2,
        json: {
          error: 'usage_error',
          message: 'Unknown flag --colour (platform projects list --help lists its flags)',
        },
      });
    },
  );

  it("describes each of a command's flags and every command's own in --help", async () => {
    const help = await platform(['deploy', '--help']);
    expect(help.code).toBe(0);
    const lines = help.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      `Usage: platform ${commands.deploy?.usage}`,
      '',
      commands.deploy?.summary,
    ]);
    for (const [name, option] of Object.entries({ ...commands.deploy?.options, ...GLOBAL_OPTIONS })) {
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^  (-\\w, )?--${name}\\b.* {3}${escaped(option.help)}$`)),
      );
    }
    // No command is left without its sentence, nor a flag without its line.
    for (const [words, command] of Object.entries(commands)) {
      expect(`${words}: ${command.summary}`).toMatch(new RegExp(`^${words}: [A-Z].+\\.$`));
      for (const [name, option] of Object.entries(command.options ?? {}))
        expect(`${words} --${name}: ${option.help}`).toMatch(/: \S.{9,}$/);
    }
  });

  it('suggests the flag a mistyped one meant, and says which flag lacks its value', async () => {
    expect(await platform(['deploy', 'web', '--brnch', 'main', '--json'])).toMatchObject({
      code: 2,
      json: {
        error: 'usage_error',
        message: 'Unknown flag --brnch: did you mean --branch? (platform deploy --help lists its flags)',
      },
    });
    expect((await platform(['deployments', 'list', '--stat', 'ready', '--json'])).json).toMatchObject({
      message:
        'Unknown flag --stat: did you mean --status? (platform deployments list --help lists its flags)',
    });
    expect((await platform(['keys', 'create', '--nmae', 'ci', '--json'])).json).toMatchObject({
      message: 'Unknown flag --nmae: did you mean --name? (platform keys create --help lists its flags)',
    });
    expect((await platform(['deploy', 'web', '--branch', '--json'])).json).toMatchObject({
      error: 'usage_error',
      message: '--branch needs a value: --branch <branch> (platform deploy --help lists its flags)',
    });
  });

  slowly('names the URL it could not reach and the setting that chose it (exit 1)', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await freePort();
    const nowhere = { PLATFORM_API_KEY: 'pk_test_x', PLATFORM_API_URL: `http://127.0.0.1:${port}/v1` };
    expect(await platform(['projects', 'list', '--json'], nowhere)).toMatchObject({
      code: 1,
      json: {
        error: 'connection_error',
        message: expect.stringMatching(
          new RegExp(
            `^Could not reach http://127\\.0\\.0\\.1:${port}/v1/projects\\S* \\(ECONNREFUSED\\); the server comes from PLATFORM_API_URL: is it running`,
          ),
        ),
      },
    });
  });

  slowly('says not_logged_in (exit 2) with no key', async () => {
    expect(await platform(['projects', 'list', '--json'], { CONFIG: 'nobody' })).toEqual(
      expect.objectContaining({
        code: 2,
        json: {
          error: 'not_logged_in',
          message: 'Not logged in: run `platform login`, or set PLATFORM_API_KEY',
        },
      }),
    );
  });

  slowly(
    'logs in from the environment, keeps the key in a 0600 file, uses it, and logs out (revoking it)',
    async () => {
      const email = `cli-${randomUUID()}@example.com`;
      const password = 'correct horse battery';
      await new PlatformClient({ baseUrl: gateway.baseUrl }).auth.register({ email, password });
      const config = { CONFIG: `login-${randomUUID()}` };

      expect(await platform(['login', '--json'], config)).toMatchObject({
        code: 2,
        json: { error: 'usage_error', message: expect.stringContaining('no terminal to ask on') },
      });
      const login = await platform(['login', '--json'], {
        ...config,
        PLATFORM_EMAIL: email,
        PLATFORM_PASSWORD: password,
      });
      expect(login.code).toBe(0);
      expect(login.json).toEqual({
        tokenType: 'Bearer',
        expiresAt: expect.any(String),
        user: expect.objectContaining({ email }),
      });
      const file = join(home, config.CONFIG, 'platform', 'credentials.json');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(await readFile(file, 'utf8')) as { apiKey: string };
      expect(stored).toMatchObject({ apiKey: expect.any(String), baseUrl: gateway.baseUrl, email });

      const created = await platform(['projects', 'create', '--name', 'web', '--json'], config);
      expect(created).toMatchObject({ code: 0, json: { name: 'web', id: expect.stringMatching(/^prj_/) } });

      const withKey = await platform(
        ['login', '--print-key', '--json', '--email', email, '--password', password],
        config,
      );
      expect(withKey.json).toMatchObject({ apiKey: expect.any(String) });

      expect(await platform(['logout', '--json'], config)).toMatchObject({
        code: 0,
        json: { loggedOut: true, revoked: true },
      });
      await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await platform(['projects', 'list', '--json'], config)).json).toMatchObject({
        error: 'not_logged_in',
      });
    },
  );

  slowly(
    'registers and logs in at once; whoami says who the key is, where it came from and the team',
    async () => {
      const email = `cli-${randomUUID()}@example.com`;
      const config = { CONFIG: `register-${randomUUID()}` };
      const registered = await platform(
        ['register', '--email', email, '--password', 'correct horse battery', '--json'],
        config,
      );
      expect(registered).toMatchObject({
        code: 0,
        json: { user: { email, role: 'member' }, tokenType: 'Bearer', expiresAt: expect.any(String) },
      });
      expect(await platform(['whoami', '--json'], config)).toMatchObject({
        code: 0,
        json: {
          type: 'user',
          email,
          keyFrom: `the login stored in ${join(home, config.CONFIG, 'platform', 'credentials.json')}`,
          team: { personal: true, chosenBy: null },
        },
      });
      // Taken: the API's 409, and the stored login is still the first.
      expect(
        await platform(['register', '--email', email, '--password', 'another password', '--json'], config),
      ).toMatchObject({ code: 1, json: { error: 'conflict' } });

      // A key in the environment goes first, whoever it is.
      const otherEmail = `cli-${randomUUID()}@example.com`;
      const sdk = new PlatformClient({ baseUrl: gateway.baseUrl });
      await sdk.auth.register({ email: otherEmail, password: 'correct horse battery' });
      const { apiKey } = await sdk.auth.login({ email: otherEmail, password: 'correct horse battery' });
      const env = { ...config, PLATFORM_API_KEY: apiKey };
      const acme = (await platform(['teams', 'create', 'Acme', '--json'], env)).json as { id: string };
      const { stdout } = await platform(['whoami', '--team', 'Acme'], env);
      expect(stdout.trimEnd().split('\n')).toEqual([
        `${otherEmail} (key from PLATFORM_API_KEY)`,
        `Team: Acme (${acme.id}), chosen by --team`,
      ]);
    },
  );

  slowly('lists, gets, creates, updates and deletes projects (deleting only with --yes)', async () => {
    const { env } = await asKey();
    const { json: project } = (await platform(
      [
        'projects',
        'create',
        '--name',
        'api',
        '--repository',
        'acme/api',
        '--production-branch',
        'trunk',
        '--json',
      ],
      env,
    )) as { json: { id: string } };
    expect(project).toMatchObject({ name: 'api', repository: 'acme/api', productionBranch: 'trunk' });
    expect((await platform(['projects', 'list', '--json'], env)).json).toEqual([project]);
    expect((await platform(['projects', 'get', project.id, '--json'], env)).json).toEqual(project);
    expect((await platform(['projects', 'get', 'api', '--json'], env)).json).toEqual(project);
    const updated = await platform(['projects', 'update', project.id, '--name', 'api2', '--json'], env);
    expect(updated.json).toMatchObject({ id: project.id, name: 'api2', repository: 'acme/api' });

    const table = await platform(['projects', 'list'], env);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+REPOSITORY\s+PRODUCTIONBRANCH\s+CREATEDAT\n/);
    expect(table.stdout).toContain('api2');

    const refused = await platform(['projects', 'delete', project.id, '--json'], env);
    expect(refused).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('--yes') },
    });
    expect((await platform(['projects', 'get', project.id, '--json'], env)).code).toBe(0);
    expect(await platform(['projects', 'delete', project.id, '--yes', '--json'], env)).toMatchObject({
      code: 0,
      json: { id: project.id, deleted: true },
    });
    expect(await platform(['projects', 'get', project.id, '--json'], env)).toMatchObject({
      code: 1,
      json: { error: 'not_found', message: expect.any(String) },
    });
    const readable = await platform(['projects', 'get', project.id], env);
    expect(readable.code).toBe(1);
    expect(readable.stderr).toMatch(/^Error: .+ \(HTTP 404, request \S+\)\n$/);
  });

  slowly('deploys by project name, lists, gets and cancels deployments', async () => {
    const { env } = await asKey();
    const { json: project } = (await platform(['projects', 'create', '--name', 'shop', '--json'], env)) as {
      json: { id: string };
    };
    const deployed = await platform(['deploy', 'shop', '--branch', 'feature/x', '--json'], env);
    expect(deployed).toMatchObject({
      code: 0,
      json: { projectId: project.id, branch: 'feature/x', status: 'queued' },
    });
    const { id } = deployed.json as { id: string };
    expect((await platform(['deployments', 'list', '--project', 'shop', '--json'], env)).json).toEqual([
      deployed.json,
    ]);
    expect((await platform(['deployments', 'list', '--status', 'ready', '--json'], env)).json).toEqual([]);
    expect((await platform(['deployments', 'get', id, '--json'], env)).json).toEqual(deployed.json);
    expect(await platform(['deployments', 'cancel', id, '--yes', '--json'], env)).toMatchObject({
      code: 0,
      json: { id, status: 'canceled' },
    });
    expect(await platform(['deploy', 'no-such-project', '--json'], env)).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });

  slowly('deploy --wait follows the build and exits 0 when it is ready (local builder on)', async () => {
    const { env, userId } = await asKey();
    await platform(['projects', 'create', '--name', 'site', '--json'], env);
    const builder = startLocalBuilder({ delayMs: 100, pollMs: 20, ownerId: userId });
    try {
      const run = await platform(['deploy', 'site', '--wait', '--json'], env);
      expect(run).toMatchObject({ code: 0, json: { status: 'ready', readyAt: expect.any(String) } });
      // stdout holds only the deployment; the build's statuses and lines went to stderr.
      const printed = run.stderr
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/^\S+ {2}/, ''));
      // The stream reads the status once a second: a 100 ms `building` may come and go unseen.
      const statuses = ['queued', 'building', 'ready'];
      // First the deployment's id, and how to follow or cancel it from elsewhere.
      const { id } = run.json as { id: string };
      expect(printed[0]).toBe(
        `Deployment ${id} (production): \`platform logs ${id} --follow\` follows it, \`platform deployments cancel ${id}\` cancels it`,
      );
      expect(printed[1]).toBe('queued');
      expect(printed.slice(1).filter((line) => !statuses.includes(line))).toEqual([
        'Cloning branch main',
        'Installing dependencies',
        '> npm run build',
        'Compiled successfully',
        'Uploading build output',
      ]);
      expect(printed.at(-1)).toBe('ready');
    } finally {
      await builder.stop();
    }
  });

  slowly('promotes a preview, rolls back (only with --yes) and shows the production history', async () => {
    const { env, userId } = await asKey();
    await platform(['projects', 'create', '--name', 'live', '--json'], env);
    const builder = startLocalBuilder({ delayMs: 50, pollMs: 20, ownerId: userId });
    const waited = (args: string[]) => platform(['deploy', 'live', ...args, '--wait', '--json'], env);
    let production: { id: string; target: string };
    let preview: { id: string; target: string };
    try {
      production = (await waited([])).json as typeof production;
      preview = (await waited(['--branch', 'feature/x'])).json as typeof preview;
    } finally {
      await builder.stop();
    }
    expect([production.target, preview.target]).toEqual(['production', 'preview']);
    const listed = await platform(['deployments', 'list', '--target', 'preview', '--json'], env);
    expect((listed.json as { id: string }[]).map((d) => d.id)).toEqual([preview.id]);
    const promoted = await platform(['promote', 'live', preview.id], env);
    expect(promoted).toMatchObject({ code: 0 });
    // The project as it was named, not its id.
    expect(promoted.stdout).toMatch(new RegExp(`^Production of live is ${preview.id} \\(promote`));
    // Its production as fields of their own, not a JSON document in a line.
    const shown = (await platform(['projects', 'get', 'live'], env)).stdout.split('\n');
    expect(shown.join('\n')).not.toContain('{"');
    expect(shown.slice(shown.indexOf('production:'))).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^  deploymentId: +${preview.id}$`))]),
    );
    // A rollback asks first, and says how it is undone (the confirmation once called it final).
    expect(await platform(['rollback', 'live', '--json'], env)).toMatchObject({
      code: 2,
      json: {
        error: 'usage_error',
        message: expect.stringMatching(/next promote, which also undoes it\. Pass --yes to go ahead/),
      },
    });
    const rolledBack = await platform(['rollback', 'live', '--yes', '--json'], env);
    expect(rolledBack).toMatchObject({
      code: 0,
      json: { autoPromotion: false, production: { deploymentId: production.id, reason: 'rollback' } },
    });
    const history = await platform(['production', 'history', 'live', '--json'], env);
    expect((history.json as { reason: string }[]).map((move) => move.reason)).toEqual([
      'rollback',
      'promote',
      'auto',
    ]);
    const none = await platform(['rollback', 'live', '--yes', '--json'], env);
    expect(none).toMatchObject({ code: 1, json: { error: 'conflict' } });
  });

  slowly(
    'logs --follow prints the build log as it is written, once, until the deployment is ready',
    async () => {
      const { env, userId } = await asKey();
      await platform(['projects', 'create', '--name', 'logged', '--json'], env);
      const created = await platform(['deploy', 'logged', '--json'], env);
      const { id } = created.json as { id: string };
      const builder = startLocalBuilder({ delayMs: 300, pollMs: 20, ownerId: userId });
      try {
        const followed = await platform(['logs', id, '--follow'], env);
        expect(followed.code).toBe(0);
        const texts = followed.stdout
          .trim()
          .split('\n')
          .map((line) => line.replace(/^\S+ {2}/, ''));
        expect(texts).toEqual([
          'Cloning branch main',
          'Installing dependencies',
          '> npm run build',
          'Compiled successfully',
          'Uploading build output',
          `Deployment ${id} is ready`,
        ]);
      } finally {
        await builder.stop();
      }
      const listed = await platform(['logs', id, '--since', '3', '--json'], env);
      expect(listed).toMatchObject({
        code: 0,
        json: {
          lines: [
            { seq: 4, text: 'Compiled successfully' },
            { seq: 5, text: 'Uploading build output' },
          ],
        },
      });
      expect(
        await platform(['logs', 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M', '--follow', '--json'], env),
      ).toMatchObject({
        code: 1,
        json: { error: 'not_found' },
      });
    },
  );

  slowly('deploy --wait exits 1 when the deployment does not finish within --timeout', async () => {
    const { env } = await asKey();
    await platform(['projects', 'create', '--name', 'slow', '--json'], env);
    const run = await platform(['deploy', 'slow', '--wait', '--timeout', '1s', '--json'], env);
    expect(run).toMatchObject({
      code: 1,
      json: {
        error: 'timeout',
        message: expect.stringMatching(/^Deployment dpl_\S+ is still queued after 1 s$/),
      },
    });
  });

  slowly('lists, creates and revokes keys', async () => {
    const { env } = await asKey();
    const created = await platform(['keys', 'create', '--name', 'ci', '--scopes', 'read', '--json'], env);
    expect(created).toMatchObject({
      code: 0,
      json: { apiKey: expect.any(String), key: { name: 'ci', scopes: ['read'] } },
    });
    const { key } = created.json as { key: { id: string } };
    const listed = (await platform(['keys', 'list', '--json'], env)).json as { id: string }[];
    expect(listed.map((item) => item.id)).toContain(key.id);
    expect(await platform(['keys', 'revoke', key.id, '--yes', '--json'], env)).toMatchObject({
      code: 0,
      json: { id: key.id, revoked: true },
    });
  });

  slowly(
    'adds, lists, updates, pulls, removes and replaces (from stdin) environment variables, never showing a secret',
    async () => {
      const { env } = await asKey();
      const project = (await platform(['projects', 'create', '--name', 'envs', '--json'], env)).json as {
        id: string;
      };
      const plain = await platform(
        [
          'env',
          'add',
          'envs',
          '--key',
          'API_URL',
          '--value',
          'https://a "b"',
          '--targets',
          'development',
          '--json',
        ],
        env,
      );
      expect(plain).toMatchObject({
        code: 0,
        json: { key: 'API_URL', type: 'plain', value: 'https://a "b"' },
      });
      const secret = await platform(
        ['env', 'add', project.id, '--key', 'TOKEN', '--value', 's3cr3t-v4lue', '--secret', '--json'],
        env,
      );
      expect(secret).toMatchObject({ code: 0, json: { key: 'TOKEN', type: 'secret' } });
      expect(secret.stdout).not.toContain('s3cr3t-v4lue');
      const listed = (await platform(['env', 'list', 'envs', '--json'], env)).json as {
        key: string;
        value?: string;
      }[];
      expect(
        listed.map(({ key, value }) => ({ key, value })).sort((a, b) => a.key.localeCompare(b.key)),
      ).toEqual([
        { key: 'API_URL', value: 'https://a "b"' },
        { key: 'TOKEN', value: undefined },
      ]);
      const { id } = plain.json as { id: string };
      expect(
        await platform(['env', 'update', 'envs', id, '--value', 'https://c', '--json'], env),
      ).toMatchObject({
        code: 0,
        json: { id, value: 'https://c' },
      });
      expect(await platform(['env', 'pull', 'envs', '--json'], env)).toMatchObject({
        code: 0,
        json: { target: 'development', variables: { API_URL: 'https://c' }, secrets: ['TOKEN'] },
      });
      const pulled = await platform(['env', 'pull', 'envs'], env);
      expect(pulled.stdout).toBe('# not readable (secrets): TOKEN\nAPI_URL="https://c"\n');
      expect(await platform(['env', 'rm', 'envs', id, '--yes', '--json'], env)).toMatchObject({
        code: 0,
        json: { id, deleted: true },
      });
      // The whole set from the process's stdin: TOKEN goes, no value comes back.
      const replaced = await platformProcess(
        ['env', 'replace', 'envs', '--file', '-', '--secrets', 'KEY', '--yes', '--json'],
        env,
        'KEY="piped s3cr3t"\nMODE=dev\n',
      );
      expect(replaced).toMatchObject({ code: 0 });
      expect(replaced.stdout).not.toMatch(/s3cr3t|dev"/);
      expect(await platform(['env', 'pull', 'envs', '--json'], env)).toMatchObject({
        json: { variables: { MODE: 'dev' }, secrets: ['KEY'] },
      });
    },
  );

  slowly('lists, creates, tests and deletes webhooks', async () => {
    const { env } = await asKey();
    const created = await platform(
      [
        'webhooks',
        'create',
        '--url',
        'https://example.com/hook',
        '--events',
        'deployment.ready,deployment.error',
        '--json',
      ],
      env,
    );
    expect(created).toMatchObject({
      code: 0,
      json: {
        secret: expect.stringMatching(/^whsec_/),
        webhook: { url: 'https://example.com/hook', events: ['deployment.ready', 'deployment.error'] },
      },
    });
    const { id } = (created.json as { webhook: { id: string } }).webhook;
    expect(
      ((await platform(['webhooks', 'list', '--json'], env)).json as { id: string }[]).map((w) => w.id),
    ).toEqual([id]);
    expect(await platform(['webhooks', 'test', id, '--json'], env)).toMatchObject({
      code: 0,
      json: { event: 'ping' },
    });
    expect(await platform(['webhooks', 'delete', id, '--yes', '--json'], env)).toMatchObject({
      code: 0,
      json: { id, deleted: true },
    });
    expect((await platform(['webhooks', 'list', '--json'], env)).json).toEqual([]);
  });

  slowly('adds, lists, shows, checks and removes a domain, its records as a table', async () => {
    const { env } = await asKey();
    const project = await platform(['projects', 'create', '--name', 'doms', '--json'], env);
    const id = (project.json as { id: string }).id;
    const name = `cli-${randomUUID().slice(0, 8)}.example.com`;
    expect(await platform(['domains', 'add', id, name, '--json'], env)).toMatchObject({
      code: 0,
      json: { name, projectId: id, status: 'pending' },
    });
    expect(
      ((await platform(['domains', 'list', id, '--json'], env)).json as { name: string }[]).map(
        (d) => d.name,
      ),
    ).toEqual([name]);
    const shown = await platform(['domains', 'get', id, name], env);
    expect(shown.stdout).toMatch(
      new RegExp(
        `TXT +_platform-challenge\\.${name.replaceAll('.', '\\.')} +platform-verification=[0-9a-f]{40} +- +missing`,
      ),
    );
    // Still pending (this DNS knows no name): exit 1, the same document, and in text what to create.
    expect(await platform(['domains', 'verify', id, name, '--json'], env)).toMatchObject({
      code: 1,
      json: { name, status: 'pending', lastCheckedAt: expect.any(String) },
    });
    const pending = await platform(['domains', 'verify', id, name], env);
    expect(pending.code).toBe(1);
    expect(pending.stdout).toContain(
      `${name} is not verified yet. Create these records at your DNS provider, then run this again:\n  TXT _platform-challenge.${name} -> platform-verification=`,
    );
    expect(await platform(['domains', 'rm', id, name, '--yes', '--json'], env)).toMatchObject({
      code: 0,
      json: { name, deleted: true },
    });
    expect((await platform(['domains', 'list', id, '--json'], env)).json).toEqual([]);
  });
});
