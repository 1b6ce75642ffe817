import { CliError, type Flags, string } from './flags.ts';

// A point in time as a flag gives it (`--since`, `--until`), read before any request: an ISO-8601
// date and time with its zone (what the API takes), a day (its start, UTC), or a span back from now.

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AGO = /^(\d+)(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The flag's time as the API takes it (`2026-11-25T09:15:00.000Z`), or undefined when not given. */
export function instant(flags: Flags, name: string, now = Date.now()): string | undefined {
  const text = string(flags, name);
  if (text === undefined) return undefined;
  const ago = AGO.exec(text);
  const at = ago
    ? now - Number(ago[1]) * UNIT_MS[ago[2] as keyof typeof UNIT_MS]
    : DATE_TIME.test(text) || DAY.test(text)
      ? Date.parse(text)
      : Number.NaN;
  if (Number.isNaN(at)) {
    throw new CliError(
      'usage_error',
      `--${name} must be a date and time with its zone (2026-11-25T09:15:00Z), a day (2026-11-25) or a span back from now (90m, 24h, 7d), not ${text}`,
    );
  }
  return new Date(at).toISOString();
}
