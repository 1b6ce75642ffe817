import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';

// What a user gets from `npm pack` of the two packages: installed into an empty folder with nothing
// but the two tarballs (neither has any other dependency, so not even the registry is asked), the
// installed `platform --help` runs, a two-line SDK script reaches the API, and a TypeScript file
// compiles against the installed declarations.

const run = promisify(execFile);
const CLIENTS = join(import.meta.dirname, '..', '..');
const ROOT = join(CLIENTS, '..');
// Settings `npm run` gives its scripts (the workspace, the prefix) must not reach the npm run here.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));

let gateway: TestGateway;
let dir: string;
beforeAll(async () => {
  gateway = await startGateway();
  dir = await mkdtemp(join(tmpdir(), 'platform-pack-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(dir, { recursive: true, force: true });
});

it('installs from the two tarballs into an empty folder, and both packages work there', async () => {
  const tarballs = join(dir, 'tarballs');
  const app = join(dir, 'app');
  await mkdir(tarballs);
  await mkdir(app);
  for (const pkg of ['typescript', 'cli']) {
    await run('npm', ['pack', '--silent', '--pack-destination', tarballs], { cwd: join(CLIENTS, pkg), env });
  }
  const files = (await readdir(tarballs)).sort();
  expect(files).toEqual(['platform-api-cli-0.1.0.tgz', 'platform-api-client-0.1.0.tgz']);
  await run('npm', ['install', '--no-audit', '--no-fund', ...files.map((file) => join(tarballs, file))], {
    cwd: app,
    env,
  });

  const help = await run(join(app, 'node_modules', '.bin', 'platform'), ['--help'], { env });
  expect(help.stdout).toContain('Usage: platform <command>');

  await writeFile(
    join(app, 'health.mjs'),
    [
      "import { PlatformClient } from '@platform-api/client';",
      'console.log((await new PlatformClient({ baseUrl: process.argv[2] }).service.getHealth()).status);',
      '',
    ].join('\n'),
  );
  const health = await run(process.execPath, ['health.mjs', gateway.baseUrl], { cwd: app, env });
  expect(health.stdout).toBe('ok\n');

  await writeFile(
    join(app, 'typed.ts'),
    [
      "import { PlatformClient, type Schemas } from '@platform-api/client';",
      "const client = new PlatformClient({ baseUrl: 'http://localhost:3000/v1' });",
      "export const project: Promise<Schemas['Project']> = client.projects.get('prj_1');",
      '// @ts-expect-error: a project has no `colour`',
      "export const colour = client.projects.create({ name: 'web', colour: 'red' });",
      '',
    ].join('\n'),
  );
  await writeFile(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        strict: true,
        noEmit: true,
      },
      files: ['typed.ts'],
    }),
  );
  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], {
    cwd: app,
    env,
  });
}, 180_000);
