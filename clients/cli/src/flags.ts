// Flag parsing shared by every command: the flags every command takes, readers of a parsed value,
// and the CLI's own error (in the API's error shape).

export type Flags = Record<string, string | string[] | boolean | undefined>;
/**
 * A flag a command takes; `multiple`: it may be given more than once. `help` is its line in the
 * command's --help: what it does, and for a value, what it takes and its default.
 */
export type Option = {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  help: string;
  /** What the help calls a string flag's value: `--api-url <url>` (`<value>` unless named). */
  value?: string;
};

/** An error of the CLI itself, in the API's error shape; exit code 2 unless it stands for an API answer. */
export class CliError extends Error {
  readonly code: 'usage_error' | 'not_logged_in' | 'not_found' | 'timeout' | 'connection_error';
  readonly exitCode: number;

  constructor(code: CliError['code'], message: string, exitCode = 2) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** The flags every command takes. */
export const GLOBAL_OPTIONS: Record<string, Option> = {
  json: { type: 'boolean', help: 'print exactly one JSON document on stdout (errors too)' },
  yes: { type: 'boolean', short: 'y', help: 'go ahead without asking to confirm' },
  help: { type: 'boolean', short: 'h', help: "show the command's usage and flags" },
  'api-url': {
    type: 'string',
    value: 'url',
    help: '{base_url}, ending in /v1 (PLATFORM_API_URL; default http://localhost:3000/v1)',
  },
  'backend-url': {
    type: 'string',
    value: 'url',
    help: '{backend_url} (PLATFORM_BACKEND_URL; default: the API URL without /v1)',
  },
  team: {
    type: 'string',
    value: 'id or name',
    help: 'act in this team (PLATFORM_TEAM; else the one `platform switch` chose; else your personal team)',
  },
};
/** The global flags that take a value (the command finder skips it). */
export const GLOBAL_VALUES = ['--api-url', '--backend-url', '--team'];

/** What every list command takes. */
export const LIST_OPTIONS: Record<string, Option> = {
  limit: { type: 'string', value: 'n', help: 'list at most this many (default: all, page by page)' },
};

export const string = (flags: Flags, name: string): string | undefined => {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
};

export const required = (flags: Flags, name: string): string => {
  const value = string(flags, name);
  if (value === undefined) throw new CliError('usage_error', `--${name} is required`);
  return value;
};

export const integer = (flags: Flags, name: string): number | undefined => {
  const value = string(flags, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new CliError('usage_error', `--${name} must be a whole number, not ${value}`);
  return Number(value);
};

/** `a,b` as `['a', 'b']`. */
export const list = (value: string | undefined) => value?.split(',').map((item) => item.trim());

/** A repeatable flag's values, each of which may be a comma list: `--x a --x b,c` is `['a', 'b', 'c']`. */
export const strings = (flags: Flags, name: string): string[] | undefined => {
  const value = flags[name];
  if (value === undefined || typeof value === 'boolean') return undefined;
  return (Array.isArray(value) ? value : [value]).flatMap((item) => list(item) ?? []).filter(Boolean);
};

/** Keeps the fields that were given, so that PATCH and POST bodies carry no undefined. */
export const defined = <T extends Record<string, unknown>>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** `15m`, `90s`, `1h`, `500ms`, or seconds, in milliseconds. */
export function duration(flags: Flags, name: string, fallback: string): number {
  const text = string(flags, name) ?? fallback;
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text);
  if (!match) throw new CliError('usage_error', `--${name} must be like 90s, 15m or 1h, not ${text}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's'] ?? 1000;
  return Number(match[1]) * unit;
}

/** Collects a list's items, every page or the first --limit. */
export async function collect<T>(items: AsyncIterable<T>, flags: Flags): Promise<T[]> {
  const limit = integer(flags, 'limit') ?? Number.POSITIVE_INFINITY;
  const all: T[] = [];
  if (limit === 0) return all;
  for await (const item of items) {
    all.push(item);
    if (all.length >= limit) break;
  }
  return all;
}
