import { CliError } from './flags.ts';

// `.env` files: the lines `env pull` writes and `env replace` reads. A line is `KEY=value`, maybe
// after `export `; `#` starts a comment line; a value is bare (trimmed, up to a ` #` comment),
// 'single-quoted' (as is) or "double-quoted" (`\n`, `\"` and `\\` escaped, and it may span lines), so
// that what `env pull` writes reads back the same. An error names the line, never its value.

export interface DotenvEntry {
  key: string;
  value: string;
  /** The 1-based line it starts on. */
  line: number;
}

/** `KEY=value` lines a shell or a dotenv reader takes: values quoted, with `"`, `\` and newlines escaped. */
export const dotenvLine = (key: string, value: string): string =>
  `${key}="${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;
const ESCAPED: Record<string, string> = { n: '\n', '"': '"', '\\': '\\' };

const invalid = (where: string, line: number, what: string) =>
  new CliError('usage_error', `${where}, line ${line}: ${what}`);

/** A double-quoted value from just after its opening quote: the value and what follows the closing one, or undefined if it does not close. */
function closeQuoted(text: string): { value: string; rest: string } | undefined {
  let value = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (char === '"') return { value, rest: text.slice(i + 1) };
    if (char === '\\' && i + 1 < text.length) {
      const next = text[i + 1] ?? '';
      value += ESCAPED[next] ?? `\\${next}`;
      i += 1;
    } else value += char;
  }
  return undefined;
}

/** The entries of a `.env` text, in order; `where` (the file's name) is for errors. */
export function parseDotenv(text: string, where: string): DotenvEntry[] {
  const lines = text.split(/\r?\n/);
  const entries: DotenvEntry[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = index + 1;
    const source = lines[index] ?? '';
    if (source.trim() === '' || source.trimStart().startsWith('#')) continue;
    const assignment = ASSIGNMENT.exec(source);
    if (!assignment) throw invalid(where, line, 'not KEY=value (a key is letters, digits and _)');
    const [, key = '', raw = ''] = assignment;
    const start = raw.trimStart();
    let value: string;
    let rest = '';
    if (start.startsWith('"')) {
      // A double-quoted value may go on over the next lines until its closing quote.
      let quoted = start.slice(1);
      let closed = closeQuoted(quoted);
      while (!closed && index + 1 < lines.length) {
        index += 1;
        quoted += `\n${lines[index] ?? ''}`;
        closed = closeQuoted(quoted);
      }
      if (!closed) throw invalid(where, line, `the value of ${key} has no closing "`);
      ({ value, rest } = closed);
    } else if (start.startsWith("'")) {
      const end = start.indexOf("'", 1);
      if (end < 0) throw invalid(where, line, `the value of ${key} has no closing '`);
      value = start.slice(1, end);
      rest = start.slice(end + 1);
    } else {
      value = start.replace(/\s+#.*$/, '').trimEnd();
    }
    if (rest.trim() !== '' && !rest.trimStart().startsWith('#'))
      throw invalid(where, line, `text after the quoted value of ${key}`);
    entries.push({ key, value, line });
  }
  return entries;
}
