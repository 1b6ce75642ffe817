import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import {
  flattenedStack,
  flattenedTemplate,
  TEST_SYNTH_CONTEXT,
  type TemplateJson,
  testOutdir,
} from './stack-templates.ts';

// The synthesized stack, bundled as `cdk deploy` would ship it, shared by every suite that runs the
// bundles. The test run's global setup starts one synthesis in a child process and carries on; the
// suites that need it wait for it here, while the others run meanwhile.

const DIRECTORY_VARIABLE = 'PLATFORM_TEST_ASSEMBLY';
const WAIT_LIMIT_MS = 300_000;

/** Starts the synthesis (global setup); the folder is named in the environment the workers inherit. */
export function startSynthesis(): ChildProcess {
  const outdir = mkdtempSync(join(tmpdir(), 'platform-assembly-'));
  process.env[DIRECTORY_VARIABLE] = outdir;
  const script = join(import.meta.dirname, 'synth-stack.ts');
  // At the default priority: the files that judge time run after the parallel phase, alone
  // (jest.config.js), and the suites that read the synthesis run last in it (test/support/sequencer.ts).
  return spawn(process.execPath, [script, outdir], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Stops a synthesis still running and removes its folder (global teardown). */
export function endSynthesis(child: ChildProcess | undefined): void {
  if (child && child.exitCode === null) child.kill();
  const outdir = process.env[DIRECTORY_VARIABLE];
  if (outdir) rmSync(outdir, { recursive: true, force: true });
}

/** The synthesized cloud assembly, once the run's synthesis has finished. */
export async function synthesizedAssembly(): Promise<CloudAssembly> {
  const outdir = process.env[DIRECTORY_VARIABLE];
  if (!outdir) throw new Error(`${DIRECTORY_VARIABLE} is not set: the global setup starts the synthesis`);
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!existsSync(join(outdir, '.synth-done'))) {
    const failed = join(outdir, '.synth-failed');
    if (existsSync(failed)) throw new Error(`Synthesis failed: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`Synthesis did not finish within ${WAIT_LIMIT_MS / 1000} s`);
    await sleep(250);
  }
  return new CloudAssembly(outdir);
}

/**
 * The default stack's root template, its route families merged in (test/support/stack-templates.ts),
 * as the run's synthesis made it: the suites that read the default stack share that one instead of
 * each synthesizing it again (about 8 CPU-s each). Only the functions' code differs from a synthesis
 * without bundling (its asset hashes). Where the run has no synthesis (PLATFORM_TEST_SYNTH=off, a
 * file run on its own), the stack is synthesized here without bundling.
 */
export async function defaultStackTemplate(): Promise<TemplateJson> {
  if (!process.env[DIRECTORY_VARIABLE]) {
    const [{ App }, { PlatformStack }] = await Promise.all([
      import('aws-cdk-lib'),
      import('#infra/platform-stack.ts'),
    ]);
    const app = new App({ outdir: testOutdir(), context: TEST_SYNTH_CONTEXT });
    new PlatformStack(app, 'PlatformStack');
    return flattenedStack(app, 'PlatformStack');
  }
  const assembly = await synthesizedAssembly();
  return flattenedTemplate(assembly.directory, assembly.getStackByName('PlatformStack').templateFile);
}
