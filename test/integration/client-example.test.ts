import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publishedDocumentPath } from '../../shared/openapi/published-document.ts';

// docs/api.md's "generate a client" example, as a reader would use it: types generated from the
// document by openapi-typescript, then examples/client/platform-client.ts compiled against them.
// The same file with one name mistyped must not compile, or the types would be checking nothing.

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLE_DIR = join(ROOT, 'examples', 'client');
const BIN = join(ROOT, 'node_modules', '.bin');

/** The command docs/api.md and the example print, run here on a file instead of the server's URL. */
const GENERATE_FLAGS = ['--default-non-nullable', 'false', '-o', 'platform-api.d.ts'];
const GENERATE_COMMAND = `npx openapi-typescript http://localhost:3000/openapi.json ${GENERATE_FLAGS.join(' ')}`;

/** One mistyped name each: [file, text in the example, the typo]. */
const TYPOS: readonly [string, string, string][] = [
  ['typo-body-field.ts', "{ name: 'web',", "{ nmae: 'web',"],
  ['typo-path.ts', "api.post('/deployments',", "api.post('/deployment',"],
  ['typo-path-parameter.ts', '{ id: deployment.id }', '{ deploymentId: deployment.id }'],
  ['typo-reply-field.ts', 'return current.status;', 'return current.state;'],
  ['typo-login-reply.ts', 'const { apiKey } =', 'const { key: apiKey } ='],
];

/** tsc's `file(line,col): error` lines, as the lines of each file that has errors. */
function errorLinesByFile(output: string): Record<string, number[]> {
  const byFile: Record<string, number[]> = {};
  for (const [, file = '', line = ''] of output.matchAll(/^(\S+?)\((\d+),\d+\): error TS\d+/gm)) {
    byFile[file] = [...(byFile[file] ?? []), Number(line)];
  }
  return byFile;
}

const lineOf = (source: string, text: string): number =>
  source.slice(0, source.indexOf(text)).split('\n').length;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'client-example-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the generated-client example', () => {
  it('compiles against types generated from the document, and fails on each mistyped name', async () => {
    await copyFile(publishedDocumentPath(), join(dir, 'openapi.json'));
    await run(join(BIN, 'openapi-typescript'), ['openapi.json', ...GENERATE_FLAGS], { cwd: dir });
    await copyFile(join(EXAMPLE_DIR, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    const example = await readFile(join(EXAMPLE_DIR, 'platform-client.ts'), 'utf8');
    await writeFile(join(dir, 'platform-client.ts'), example);
    const expected: Record<string, number[]> = {};
    for (const [file, text, typo] of TYPOS) {
      expect(example.split(text)).toHaveLength(2); // the example still has this text, once
      await writeFile(join(dir, file), example.replace(text, typo));
      expected[file] = [lineOf(example, text)];
    }

    // One compilation of the example and its mistyped copies: the example compiles cleanly, and
    // each copy fails at the line with its typo (some typos also break a later line).
    const compiled = await run(join(BIN, 'tsc'), ['-p', '.'], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const firstErrors = Object.fromEntries(
      Object.entries(errorLinesByFile(compiled)).map(([file, lines]) => [file, [Math.min(...lines)]]),
    );
    expect(firstErrors).toEqual(expected);
  });

  it('is the code docs/api.md shows, with the command that generates its types', async () => {
    const guide = await readFile(join(ROOT, 'docs', 'api.md'), 'utf8');
    const example = await readFile(join(EXAMPLE_DIR, 'platform-client.ts'), 'utf8');
    expect(example).toContain(GENERATE_COMMAND);
    expect(guide).toContain(GENERATE_COMMAND);
    expect(guide).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
