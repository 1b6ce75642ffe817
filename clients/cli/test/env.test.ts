import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newCaller } from '../../../test/support/users.ts';
import { type Env, inProcessCli } from './support/in-process.ts';

// `platform env replace`: a project's whole set of variables from a `.env` file or stdin, in-process
// with recording streams against the local gateway. No value is ever printed back.

let gateway: TestGateway;
let folder: string;
beforeAll(async () => {
  gateway = await startGateway();
  folder = await mkdtemp(join(tmpdir(), 'platform-cli-env-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(folder, { recursive: true, force: true });
});

const { platform, platformText } = inProcessCli(() => gateway);

/** A `.env` file of these lines in the test's folder; its path. */
async function dotenvFile(...lines: string[]) {
  const path = join(folder, `${randomUUID()}.env`);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** A new user's key, and a project `site` of theirs with one variable, OLD. */
async function projectWithVariable() {
  const env = { PLATFORM_API_KEY: (await newCaller()).key };
  const project = (await platform(env, ['projects', 'create', '--name', 'site'])).json as { id: string };
  expect((await platform(env, ['env', 'add', 'site', '--key', 'OLD', '--value', 'old-value'])).code).toBe(0);
  return { env, project: project.id };
}

interface Variable {
  key: string;
  targets: string[];
  type: string;
  value?: string;
}

const listed = async (env: Env) =>
  ((await platform(env, ['env', 'list', 'site'])).json as Variable[])
    .map(({ key, targets, type, value }) => ({ key, targets, type, value }))
    .sort((a, b) => a.key.localeCompare(b.key));

const PEM = '-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----';
const VALUES = ['https://api.example.com', 'say "hi" \\ bye', 'it is # literal', PEM, 'r3al-s3cr3t'];

describe('platform env replace', () => {
  it('replaces the whole set from a .env file, secrets by --secrets, printing no value back', async () => {
    const { env } = await projectWithVariable();
    const file = await dotenvFile(
      '# the API',
      'export API_URL=https://api.example.com   # a comment',
      '',
      'QUOTED="say \\"hi\\" \\\\ bye"',
      "LITERAL='it is # literal'",
      'KEY="-----BEGIN KEY-----',
      'MIIBOgIBAAJBAK',
      '-----END KEY-----"',
      'TOKEN=r3al-s3cr3t',
    );

    const unconfirmed = await platform(env, ['env', 'replace', 'site', '--file', file, '--secrets', 'TOKEN']);
    expect(unconfirmed).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('--yes') },
    });
    expect((await listed(env)).map((variable) => variable.key)).toEqual(['OLD']);

    const replaced = await platform(env, [
      'env',
      'replace',
      'site',
      '--file',
      file,
      '--secrets',
      'TOKEN',
      '--yes',
    ]);
    expect(replaced.code).toBe(0);
    const shown = (replaced.json as { variables: Variable[] }).variables;
    expect(shown.map(({ key, type }) => `${key} ${type}`).sort()).toEqual([
      'API_URL plain',
      'KEY plain',
      'LITERAL plain',
      'QUOTED plain',
      'TOKEN secret',
    ]);
    for (const variable of shown) expect(variable).not.toHaveProperty('value');
    const text = await platformText(env, [
      'env',
      'replace',
      'site',
      '--file',
      file,
      '--secrets',
      'TOKEN',
      '--yes',
    ]);
    expect(text.out).toMatch(/^ID +KEY +TARGETS +TYPE\n/);
    for (const value of VALUES) {
      expect(JSON.stringify(replaced.json)).not.toContain(value);
      expect(text.out).not.toContain(value);
    }

    expect(await listed(env)).toEqual([
      {
        key: 'API_URL',
        targets: ['production', 'preview', 'development'],
        type: 'plain',
        value: 'https://api.example.com',
      },
      { key: 'KEY', targets: ['production', 'preview', 'development'], type: 'plain', value: PEM },
      {
        key: 'LITERAL',
        targets: ['production', 'preview', 'development'],
        type: 'plain',
        value: 'it is # literal',
      },
      {
        key: 'QUOTED',
        targets: ['production', 'preview', 'development'],
        type: 'plain',
        value: 'say "hi" \\ bye',
      },
      { key: 'TOKEN', targets: ['production', 'preview', 'development'], type: 'secret', value: undefined },
    ]);
  });

  it('takes the targets given for every variable', async () => {
    const { env } = await projectWithVariable();
    const file = await dotenvFile('A=1', 'B=2');
    const replaced = await platform(env, [
      'env',
      'replace',
      'site',
      '--file',
      file,
      '--targets',
      'preview',
      '--yes',
    ]);
    expect(replaced.code).toBe(0);
    expect(await listed(env)).toEqual([
      { key: 'A', targets: ['preview'], type: 'plain', value: '1' },
      { key: 'B', targets: ['preview'], type: 'plain', value: '2' },
    ]);
  });

  it('reads stdin for --file -: what `env pull` wrote comes back the same, and an empty one removes every variable', async () => {
    const { env } = await projectWithVariable();
    const values = { NOTE: 'line one\nline "two" \\ three', URL: 'https://x.example.com/?a=1#b' };
    const file = await dotenvFile('NOTE="line one\\nline \\"two\\" \\\\ three"', `URL=${values.URL}`);
    expect((await platform(env, ['env', 'replace', 'site', '--file', file, '--yes'])).code).toBe(0);
    const pulled = await platformText(env, ['env', 'pull', 'site']);

    expect((await platform(env, ['env', 'replace', 'site', '--file', '-', '--yes'], pulled.out)).code).toBe(
      0,
    );
    expect(await platform(env, ['env', 'pull', 'site'])).toMatchObject({
      json: { variables: values, secrets: [] },
    });

    expect(await platform(env, ['env', 'replace', 'site', '--file', '-', '--yes'], '')).toMatchObject({
      code: 0,
      json: { variables: [] },
    });
    expect(await listed(env)).toEqual([]);
  });

  it('refuses a bad file before any request, naming the line but never the value', async () => {
    const { env, project } = await projectWithVariable();
    const refused = async (argv: string[], message: string) => {
      const answer = await platform(env, ['env', 'replace', project, ...argv, '--yes']);
      expect(answer).toMatchObject({ code: 2, json: { error: 'usage_error', message } });
      expect(JSON.stringify(answer.json)).not.toContain('s3cr3t');
    };

    await refused([], '--file is required');
    const missing = join(folder, 'no-such.env');
    await refused(['--file', missing], expect.stringContaining(`Cannot read ${missing}`));
    const badLine = await dotenvFile('A=1', 'not an assignment s3cr3t');
    await refused(['--file', badLine], `${badLine}, line 2: not KEY=value (a key is letters, digits and _)`);
    const unclosed = await dotenvFile('TOKEN="s3cr3t', 'B=2');
    await refused(['--file', unclosed], `${unclosed}, line 1: the value of TOKEN has no closing "`);
    const trailing = await dotenvFile("TOKEN='s3cr3t' s3cr3t");
    await refused(['--file', trailing], `${trailing}, line 1: text after the quoted value of TOKEN`);
    const twice = await dotenvFile('A=s3cr3t', 'B=2', 'A=s3cr3t');
    await refused(['--file', twice], `${twice}: A is given twice (lines 1 and 3)`);
    const file = await dotenvFile('A=s3cr3t');
    await refused(
      ['--file', file, '--secrets', 'A,TOKEN'],
      `--secrets names keys ${file} does not have: TOKEN`,
    );

    expect((await listed(env)).map((variable) => variable.key)).toEqual(['OLD']);
  });

  it('passes on what the API refuses, and leaves the old set as it was', async () => {
    const { env } = await projectWithVariable();
    const file = await dotenvFile('A=1');
    expect(
      await platform(env, ['env', 'replace', 'site', '--file', file, '--targets', 'staging', '--yes']),
    ).toMatchObject({
      code: 1,
      json: { error: 'validation_error', field: expect.stringMatching(/^variables\.0\.targets/) },
    });
    const stranger = { PLATFORM_API_KEY: (await newCaller()).key };
    const project = ((await platform(env, ['projects', 'get', 'site'])).json as { id: string }).id;
    expect(await platform(stranger, ['env', 'replace', project, '--file', file, '--yes'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect((await listed(env)).map((variable) => variable.key)).toEqual(['OLD']);
  });
});

describe('platform env update and rm, by key', () => {
  /** A new user's project `site` with API_URL once for production and once for preview and development. */
  async function projectWithSplitKey() {
    const env = { PLATFORM_API_KEY: (await newCaller()).key };
    expect((await platform(env, ['projects', 'create', '--name', 'site'])).code).toBe(0);
    const add = async (targets: string, value: string) =>
      (
        (
          await platform(env, [
            'env',
            'add',
            'site',
            '--key',
            'API_URL',
            '--value',
            value,
            '--targets',
            targets,
          ])
        ).json as { id: string }
      ).id;
    const production = await add('production', 'https://api');
    const others = await add('preview,development', 'https://staging');
    expect((await platform(env, ['env', 'add', 'site', '--key', 'LOG', '--value', 'debug'])).code).toBe(0);
    return { env, production, others };
  }

  it('takes the key where the id was needed, and --target where the key has one variable per target', async () => {
    const { env, production, others } = await projectWithSplitKey();
    expect(await platform(env, ['env', 'update', 'site', 'LOG', '--value', 'info'])).toMatchObject({
      code: 0,
      json: { key: 'LOG', value: 'info' },
    });
    expect(
      await platform(env, [
        'env',
        'update',
        'site',
        'API_URL',
        '--target',
        'preview',
        '--value',
        'https://p',
      ]),
    ).toMatchObject({ code: 0, json: { id: others, value: 'https://p' } });
    expect(
      await platform(env, ['env', 'rm', 'site', 'API_URL', '--target', 'production', '--yes']),
    ).toMatchObject({ code: 0, json: { id: production, deleted: true } });
    expect(await platform(env, ['env', 'rm', 'site', 'LOG', '--yes'])).toMatchObject({ code: 0 });
    expect(await listed(env)).toEqual([
      { key: 'API_URL', targets: ['preview', 'development'], type: 'plain', value: 'https://p' },
    ]);
  });

  it('asks for --target when a key has several variables, and says when none has the key', async () => {
    const { env, production, others } = await projectWithSplitKey();
    const ambiguous = await platform(env, ['env', 'rm', 'site', 'API_URL', '--yes']);
    expect(ambiguous).toMatchObject({ code: 2, json: { error: 'usage_error' } });
    expect((ambiguous.json as { message: string }).message).toBe(
      `2 variables have the key API_URL, one per target: pass --target (${production} (production); ${others} (preview, development)) or the id`,
    );
    expect(await platform(env, ['env', 'update', 'site', 'NOPE', '--value', 'x'])).toMatchObject({
      code: 1,
      json: { error: 'not_found', message: 'No variable with the id or key NOPE in this project' },
    });
    // Nothing was removed.
    expect((await listed(env)).map(({ key }) => key)).toEqual(['API_URL', 'API_URL', 'LOG']);
  });
});
