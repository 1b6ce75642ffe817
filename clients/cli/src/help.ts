import type { Command, Commands } from './command.ts';
import { CliError, GLOBAL_OPTIONS, type Option } from './flags.ts';

// What `--help` prints, and what a command line the flag parser refused is told instead of the
// parser's own text: the flag it did not know and the nearest one it does, or the value a flag lacks.

/**
 * `--branch <branch>`, `-y, --yes`: a flag as its help lists it, its value named as the usage line
 * names it (else as the option does, else `<value>`).
 */
function flagLabel(name: string, option: Option, usage = ''): string {
  // `--branch <branch>`, or the values themselves: `--target production|preview`.
  const named = new RegExp(`--${name} (<[^>]+>|[^\\s\\]<-][^\\s\\]]*)`).exec(usage)?.[1];
  const value = named ?? `<${option.value ?? 'value'}>`;
  const long = `--${name}${option.type === 'string' ? ` ${value}` : ''}`;
  return option.short ? `-${option.short}, ${long}` : long;
}

/** Flags and their help, in two columns. */
function flagLines(options: Record<string, Option>, usage?: string): string[] {
  const entries = Object.entries(options);
  const width = Math.max(...entries.map(([name, option]) => flagLabel(name, option, usage).length)) + 3;
  return entries.map(([name, option]) => `  ${flagLabel(name, option, usage).padEnd(width)}${option.help}`);
}

/** `platform <command> --help`. */
export function commandHelp(command: Command): string {
  const own = command.options ?? {};
  return [
    `Usage: platform ${command.usage}`,
    '',
    command.summary,
    ...(Object.keys(own).length > 0 ? ['', 'Flags:', ...flagLines(own, command.usage)] : []),
    '',
    'Every command takes:',
    ...flagLines(GLOBAL_OPTIONS),
  ].join('\n');
}

/** `platform --help`. */
export function overallHelp(commands: Commands): string {
  return [
    'platform: the platform API from a terminal',
    '',
    'Usage: platform <command> [arguments] [flags]   (platform <command> --help: what it does, its flags)',
    '',
    ...Object.values(commands).map((command) => `  platform ${command.usage}`),
    '',
    'Every command takes:',
    ...flagLines(GLOBAL_OPTIONS),
    '',
    'The key: PLATFORM_API_KEY, else the one `platform login` stored in',
    '$XDG_CONFIG_HOME/platform/credentials.json (~/.config when unset). PLATFORM_API_KEY may hold a',
    'team token (platt_…, from `platform tokens create`): commands then act in its team.',
    'Exit codes: 0 done, 1 an API error or a failed deployment, 2 a usage error or not logged in.',
  ].join('\n');
}

/**
 * The fewest one-letter insertions, deletions, changes and swaps of two neighbours from a to b (the
 * optimal string alignment distance): `--nmae` is one swap from `--name`.
 */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = rows[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The flag of `names` a mistyped `typed` most likely meant: the one it begins (`--bra`), else the
 * nearest within a third of its length (two letters for `--branch`), else none.
 */
export function nearestFlag(typed: string, names: readonly string[]): string | undefined {
  const started = names.filter((name) => name.startsWith(typed));
  if (typed.length >= 2 && started.length === 1) return started[0];
  const limit = Math.max(1, Math.floor(typed.length / 3));
  const ranked = names
    .map((name) => ({ name, away: distance(typed, name) }))
    .filter(({ away }) => away <= limit)
    .sort((a, b) => a.away - b.away);
  return ranked[0]?.name;
}

/** The CLI's own words for an error of node:util's parseArgs on `command`'s line. */
export function flagError(error: unknown, command: Command): CliError {
  const { code, message } = error as { code?: string; message?: string };
  const flag = /'(-{1,2}[^' ]+)/.exec(message ?? '')?.[1] ?? '';
  const name = flag.replace(/^-+/, '');
  // The command's own words: those of its usage line before its first argument or flag.
  const ends = command.usage.split(' ').findIndex((word) => /^[<[-]/.test(word));
  const words = command.usage
    .split(' ')
    .slice(0, ends === -1 ? undefined : ends)
    .join(' ');
  const seeHelp = `platform ${words} --help lists its flags`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const names = Object.keys({ ...GLOBAL_OPTIONS, ...command.options });
    const nearest = nearestFlag(name, names);
    return new CliError(
      'usage_error',
      `Unknown flag ${flag}${nearest ? `: did you mean --${nearest}?` : ''} (${seeHelp})`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = { ...GLOBAL_OPTIONS, ...command.options }[name];
    return new CliError(
      'usage_error',
      option?.type === 'string'
        ? `${flag} needs a value: ${flagLabel(name, option, command.usage)} (${seeHelp})`
        : `${flag} takes no value (${seeHelp})`,
    );
  }
  return new CliError('usage_error', `${message ?? String(error)} (usage: platform ${command.usage})`);
}
