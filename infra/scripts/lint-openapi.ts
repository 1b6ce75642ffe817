import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { publishedDocumentPath } from '#shared/openapi/published-document.ts';

// `npm run lint:openapi` (part of `npm test`): lints the published document (shared/openapi/openapi.json)
// with Redocly, offline, with the rules of redocly.yaml (the strict set: every finding is an error, so
// the step fails on anything Redocly would warn about). That it is what the sources generate is a
// test's (test/unit/openapi-document.test.ts).

const repoRoot = dirname(dirname(import.meta.dirname));
const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

const result = spawnSync(
  process.execPath,
  [
    redocly,
    'lint',
    publishedDocumentPath(),
    '--config',
    join(repoRoot, 'redocly.yaml'),
    '--max-problems',
    '50',
  ],
  { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' } },
);
process.exitCode = result.status === 0 ? 0 : 1;
