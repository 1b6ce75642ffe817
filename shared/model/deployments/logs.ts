// A deployment's build log: its limits and the masking of secrets, with no I/O, so the schemas, the
// store and the domain read the same numbers (and the document states them).

/** Lines one append may carry; with the 64 KiB body limit, most appends are far below it. */
export const MAX_LINES_PER_APPEND = 500;
/** UTF-8 bytes of one line's text. */
export const MAX_LINE_BYTES = 8 * 1024;
/** Lines one deployment may hold in all. */
export const MAX_LINES_PER_DEPLOYMENT = 50_000;
/** UTF-8 bytes of text one deployment may hold in all (10 MiB). */
export const MAX_LOG_BYTES = 10 * 1024 * 1024;
/** How long lines are kept (the table's TTL). */
export const LOG_RETENTION_DAYS = 30;

export const LOG_STREAMS = ['stdout', 'stderr'] as const;
export type LogStream = (typeof LOG_STREAMS)[number];

/** Secret values shorter than this are not masked: masking `a` would make every log unreadable. */
export const MIN_MASKED_LENGTH = 4;
export const MASK = '***';

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Replaces every occurrence of each secret value (of at least MIN_MASKED_LENGTH characters) with
 * `***`. Longest first, so a secret that contains another is masked whole rather than leaving its
 * remainder readable.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secretsToMask(secrets)) masked = masked.split(secret).join(MASK);
  return masked;
}

/** The values worth masking, each once, longest first. */
export const secretsToMask = (secrets: readonly string[]): string[] =>
  [...new Set(secrets.filter((secret) => secret.length >= MIN_MASKED_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
