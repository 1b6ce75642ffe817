import { Readable } from 'node:stream';
import { run } from '../../src/cli.ts';
import type { IO } from '../../src/io.ts';

// The CLI run in the test's own process, against a local gateway: recording streams for its output,
// no terminal (a prompt fails), and `stdin` piped in where a command reads it.

export type Env = Record<string, string>;

interface Gateway {
  baseUrl: string;
  backendUrl: string;
}

/**
 * `platformText` runs `platform <argv>` with `env` (and `stdin`): its exit code and what it printed on
 * stdout and stderr; `platform` runs it with `--json`: its exit code and the one JSON document it
 * printed. `gateway` is read at each run, so a suite may start it in `beforeAll`.
 */
export function inProcessCli(gateway: () => Gateway) {
  const platformText = async (env: Env, argv: string[], stdin?: string) => {
    let out = '';
    let err = '';
    const { baseUrl, backendUrl } = gateway();
    const io: IO = {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      env: { PLATFORM_API_URL: baseUrl, PLATFORM_BACKEND_URL: backendUrl, ...env },
      ...(stdin === undefined ? {} : { stdin: Readable.from([Buffer.from(stdin)]) }),
      interactive: false,
      ask: () => Promise.reject(new Error('no terminal')),
      askHidden: () => Promise.reject(new Error('no terminal')),
    };
    const code = await run(argv, io);
    return { code, out, err };
  };
  const platform = async (env: Env, argv: string[], stdin?: string) => {
    const { code, out } = await platformText(env, [...argv, '--json'], stdin);
    return { code, json: JSON.parse(out) as unknown };
  };
  return { platformText, platform };
}
