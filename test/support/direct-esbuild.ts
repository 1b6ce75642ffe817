import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, delimiter, join } from 'node:path';

// CDK's NodejsFunction runs the project's esbuild as `npx --no-install esbuild <args>` (it finds
// esbuild in node_modules, so it calls it through the package manager). Starting npm costs 0.9 CPU-s,
// against 0.01 for esbuild itself, and the stack bundles 72 functions: 65 of the run's synthesis's
// 160 CPU-s went to npm finding a binary whose path is known. The test run puts an `npx` first on
// PATH that runs node_modules/.bin/esbuild with exactly the arguments CDK gave, and hands any other
// command to the real npx. Same binary, same arguments: the same bytes. test/infra/reproducible-assets
// .test.ts bundles its samples through the real npx (`pathWithoutDirectEsbuild`) and compares them
// byte for byte with the run's assets. `cdk synth` and `cdk deploy` are unchanged.

const ROOT = join(import.meta.dirname, '..', '..');

/** The folder's name, under the run's temporary folder. */
const FOLDER = 'direct-esbuild';

/** Writes the `npx` into `<runTemporary>/direct-esbuild`, first on this process's PATH (the workers inherit it). */
export function runEsbuildDirectly(runTemporary: string): void {
  const directory = join(runTemporary, FOLDER);
  mkdirSync(directory, { recursive: true });
  const esbuild = join(ROOT, 'node_modules', '.bin', 'esbuild');
  const script = join(directory, 'npx');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      '# Written by test/support/direct-esbuild.ts for one test run.',
      `if [ "$1" = "--no-install" ] && [ "$2" = "esbuild" ]; then shift 2; exec '${esbuild}' "$@"; fi`,
      `PATH='${process.env.PATH ?? ''}' exec npx "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  process.env.PATH = [directory, process.env.PATH].filter(Boolean).join(delimiter);
}

/** PATH without that `npx`: a bundling through it is one as `cdk synth` makes it. */
export function pathWithoutDirectEsbuild(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => basename(entry) !== FOLDER)
    .join(delimiter);
}
