import { parseArgs } from 'node:util';
import type { Command, Commands } from './command.ts';
import { commands as allCommands } from './commands/index.ts';
import { contextOf } from './context.ts';
import { CliError, type Flags, GLOBAL_OPTIONS, GLOBAL_VALUES } from './flags.ts';
import { commandHelp, flagError, overallHelp } from './help.ts';
import type { IO } from './io.ts';
import { print, printError } from './output.ts';
import { withTypedNames } from './typed-names.ts';
import { cliVersion } from './version.ts';

// `platform <command> [<subcommand>] [arguments] [flags]`: finds the command (its one or two words
// come first; global flags may precede them), parses its flags, runs it with the I/O it is given and
// prints what it answers. Every command takes --json (then stdout holds exactly one JSON document,
// errors included) and prints readable text without it. Exit codes: 0 done, 1 the API answered an
// error (or a deployment failed, or a wait timed out), 2 the CLI refused (usage_error, not_logged_in).

/** Finds the command: its one or two words come first, global flags may precede them. */
function findCommand(commands: Commands, argv: string[]): { command: Command; rest: string[] } | undefined {
  const words: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i += 1) {
    const token = argv[i] ?? '';
    if (GLOBAL_VALUES.includes(token)) i += 1;
    else if (!token.startsWith('-')) words.push(i);
  }
  const [first, second] = words.map((i) => argv[i] ?? '');
  for (const name of [`${first} ${second}`, first]) {
    const command = name ? commands[name] : undefined;
    if (command) {
      const used = new Set(words.slice(0, name?.split(' ').length));
      return { command, rest: argv.filter((_, i) => !used.has(i)) };
    }
  }
  return undefined;
}

/** Its flags and positional arguments; a flag it does not take is a usage error. */
function parse(command: Command, rest: string[]): { flags: Flags; args: string[] } {
  try {
    const parsed = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    return { flags: parsed.values as Flags, args: parsed.positionals };
  } catch (error) {
    throw flagError(error, command);
  }
}

/** Runs one command line with the given I/O (the process's in main.ts, fake streams in tests); its exit code. */
export async function run(argv: string[], io: IO, commands: Commands = allCommands): Promise<number> {
  const json = argv.includes('--json');
  // An error's text names what the person typed by name so (--json stays as the API answered it).
  let typedNames: ReadonlyMap<string, string> = new Map();
  try {
    if (argv.includes('--version')) {
      print(io.stdout, { json: { version: cliVersion() }, text: cliVersion() }, json);
      return 0;
    }
    const found = findCommand(commands, argv);
    if (!found) {
      if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
        print(io.stdout, { json: { usage: overallHelp(commands) }, text: overallHelp(commands) }, json);
        return 0;
      }
      throw new CliError('usage_error', `Unknown command: platform ${argv.join(' ')} (see platform --help)`);
    }
    const { command } = found;
    const { flags, args } = parse(command, found.rest);
    if (flags.help) {
      print(
        io.stdout,
        {
          json: { usage: `platform ${command.usage}`, help: commandHelp(command) },
          text: commandHelp(command),
        },
        json,
      );
      return 0;
    }
    const names = command.args ?? [];
    const required = names.filter((name) => !name.endsWith('?')).length;
    if (args.length < required || args.length > names.length) {
      throw new CliError('usage_error', `Usage: platform ${command.usage}`);
    }
    const context = contextOf(flags, args, io);
    typedNames = context.typedNames;
    const output = await command.run(context);
    print(io.stdout, output, json);
    return output.exitCode ?? 0;
  } catch (error) {
    return printError(io, error, json, (text) => withTypedNames(text, typedNames));
  }
}
