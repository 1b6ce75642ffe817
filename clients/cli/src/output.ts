import { PlatformError } from '@platform-api/client';
import { CliError } from './flags.ts';
import type { Writer } from './io.ts';

// What a command answers, and how it is printed: with --json exactly one JSON document on stdout
// (errors too), else readable text (tables, `key: value` lines; errors on stderr).

/** What a command answers: the JSON document and its readable text. */
export interface Output {
  json: unknown;
  text: string;
  exitCode?: number;
}

/** Lines of text as a table: one header row, columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '(none)';
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header.map((title) => title.toUpperCase())), ...rows.map(line)].join('\n');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object as `key: value` lines; an object in it as its own lines under its key, indented. */
export function fields(value: Record<string, unknown>, indent = ''): string {
  const width = Math.max(...Object.keys(value).map((key) => key.length));
  return Object.entries(value)
    .map(([key, field]) =>
      isRecord(field) && Object.keys(field).length > 0
        ? `${indent}${key}:\n${fields(field, `${indent}  `)}`
        : `${indent}${`${key}:`.padEnd(width + 2)}${cell(field)}`,
    )
    .join('\n');
}

/** A value as a table cell: lists joined by commas, null and undefined as `-`. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.map(cell).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A list as a table of `columns` (every field with --json). */
export const listOutput = <T extends object>(items: T[], columns: (keyof T & string)[]): Output => ({
  json: items,
  text: table(
    columns,
    items.map((item) => columns.map((column) => cell(item[column]))),
  ),
});

/** One resource as `key: value` lines. */
export const objectOutput = (value: object): Output => ({
  json: value,
  text: fields(value as Record<string, unknown>),
});

/** Prints what a command answered. */
export function print(stdout: Writer, output: Output, json: boolean): void {
  stdout.write(`${json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
}

/** Prints an error (the API's body, or the CLI's in the same shape) and returns its exit code. */
export function printError(
  io: { stdout: Writer; stderr: Writer },
  error: unknown,
  json: boolean,
  named: (text: string) => string = (text) => text,
): number {
  let body: Record<string, unknown>;
  let exitCode = 1;
  let detail = '';
  if (error instanceof PlatformError) {
    body = error.body;
    detail = ` (HTTP ${error.status}${error.requestId ? `, request ${error.requestId}` : ''})`;
  } else if (error instanceof CliError) {
    body = { error: error.code, message: error.message };
    exitCode = error.exitCode;
  } else if (error instanceof TypeError && error.cause) {
    // fetch's own failure: nothing answered at that address.
    const cause = (error.cause as { code?: string }).code;
    body = { error: 'connection_error', message: `${error.message}${cause ? ` (${cause})` : ''}` };
  } else {
    body = { error: 'cli_error', message: error instanceof Error ? error.message : String(error) };
  }
  if (json) io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  else
    io.stderr.write(
      `Error: ${named(error instanceof PlatformError ? error.message : String(body.message))}${detail}\n`,
    );
  return exitCode;
}
