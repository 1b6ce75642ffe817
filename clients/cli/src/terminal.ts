import { createInterface } from 'node:readline/promises';

/** Whether there is someone to ask: stdin and stderr (where questions go) are both terminals. */
export const interactive = (): boolean => Boolean(process.stdin.isTTY && process.stderr.isTTY);

/** Asks one question on the terminal (on stderr, so that stdout stays the command's output). */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** Asks for a password without echoing it. */
export function askHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(() => resolve(typed));
        if (char === '\u0003') return finish(() => reject(new Error('interrupted')));
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    const finish = (settle: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      settle();
    };
    stdin.on('data', onData);
  });
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

/** An object as `key: value` lines. */
export function fields(value: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(value).map((key) => key.length));
  return Object.entries(value)
    .map(([key, field]) => `${`${key}:`.padEnd(width + 2)}${cell(field)}`)
    .join('\n');
}

/** A value as a table cell: lists joined by commas, null and undefined as `-`. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.map(cell).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
