import { readFileSync } from 'node:fs';

/** The CLI's version, from its package.json (one folder up from both src/ and dist/). */
export const cliVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;

/** What the CLI's requests say they come from (the SDK adds its own token after it). */
export const cliUserAgent = (): string => `platform-cli/${cliVersion()}`;
