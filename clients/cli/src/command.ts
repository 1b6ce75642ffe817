import type { PlatformClient } from '@platform-api/client';
import type { Flags, Option } from './flags.ts';
import type { IO } from './io.ts';
import type { Output } from './output.ts';

// A command: its usage line, its positional arguments and flags, and what it does with a context.
// A group of commands (`projects list|get|…`) is one module of commands/ exporting a `Commands`
// record; commands/index.ts lists the groups.

/** What a command runs with: its parsed input, its I/O and the API. */
export interface Context {
  flags: Flags;
  args: string[];
  io: IO;
  /**
   * The client with the key in effect, acting in the team in effect (`teamChoice`); throws
   * not_logged_in when there is no key.
   */
  client(): Promise<PlatformClient>;
  /** The team the user chose and how (--team, PLATFORM_TEAM, `platform switch`); none: personal. */
  teamChoice(): Promise<TeamChoice | undefined>;
  /** A client without a key, on the servers in effect. */
  anonymous(): Promise<PlatformClient>;
  /** The names the person typed for ids the command looked up (clients/cli/src/typed-names.ts). */
  typedNames: Map<string, string>;
  /** Asks before a change to confirm (a delete, a rollback), unless --yes; refuses without a terminal. */
  confirm(what: string): Promise<void>;
  /** A line of progress, as it happens: on stderr when stdout is for --json, else on stdout. */
  progress(line: string): void;
}

export interface TeamChoice {
  /** A team id, or a name of one of the user's teams. */
  ref: string;
  from: 'flag' | 'env' | 'switched';
}

export interface Command {
  /** After `platform `: the words, the arguments, the flags. */
  usage: string;
  /** What it does, in one sentence: under the usage line in its --help and beside it in `platform --help`. */
  summary: string;
  /** The names of its positional arguments, in order; a name ending in `?` may be left out. */
  args?: string[];
  options?: Record<string, Option>;
  run(context: Context): Promise<Output>;
}

/** Commands by their words: `'projects list'`, `deploy`. */
export type Commands = Record<string, Command>;
