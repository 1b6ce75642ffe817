import { ask, askHidden } from './terminal.ts';

// What a command reads and writes, passed in rather than taken from `process`, so that a command runs
// in-process with fake streams (as `gh` constructs each command with its I/O): main.ts gives the
// process's, a test its own.

/** Anything text is written to: a process stream, or a test's recorder. */
export interface Writer {
  write(text: string): unknown;
}

export interface IO {
  stdout: Writer;
  stderr: Writer;
  env: NodeJS.ProcessEnv;
  /** What is piped in (`env replace --file -`); absent where there is none (a test's fake I/O). */
  stdin?: AsyncIterable<string | Uint8Array>;
  /** Whether there is someone to ask (stdin and stderr are terminals). */
  interactive: boolean;
  /** Asks one question, on stderr, so that stdout stays the command's output. */
  ask(question: string): Promise<string>;
  /** Asks for a password without echoing it. */
  askHidden(question: string): Promise<string>;
}

/** The process's own streams, environment and terminal. */
export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdin: process.stdin,
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    ask,
    askHidden,
  };
}
