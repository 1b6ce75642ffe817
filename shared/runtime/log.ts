import { config } from './config.ts';

// Structured log lines, one JSON object each. Callers pass only what is safe to keep: never a
// header, a body, a key or a password.

// An object member is for the metrics' `_aws` declaration (shared/http/metrics.ts).
type Fields = Record<string, string | number | boolean | undefined | object>;

export function logInfo(message: string, fields: Fields): void {
  if (config.LOG_LEVEL === 'silent') return;
  console.log(JSON.stringify({ level: 'info', message, ...fields }));
}

/** A line for a person at a terminal (LOG_FORMAT=text); silent like the JSON info lines. */
export function logText(line: string): void {
  if (config.LOG_LEVEL === 'silent') return;
  console.log(line);
}

export function logError(message: string, fields: Fields, cause: unknown): void {
  const error =
    cause instanceof Error
      ? { name: cause.name, message: cause.message, stack: cause.stack }
      : { value: String(cause) };
  console.error(JSON.stringify({ level: 'error', message, ...fields, error }));
}
