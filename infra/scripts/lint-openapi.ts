import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openApiDocument } from '../../shared/openapi/document.ts';

// `npm run lint:openapi` (part of `npm test`): writes the generated document to a temporary file and
// lints it with Redocly, offline, with the rules of redocly.yaml (the strict set: every finding is an
// error, so the step fails on anything Redocly would warn about).

const repoRoot = dirname(dirname(import.meta.dirname));
const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

const dir = mkdtempSync(join(tmpdir(), 'platform-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
  const result = spawnSync(
    process.execPath,
    [redocly, 'lint', file, '--config', join(repoRoot, 'redocly.yaml'), '--max-problems', '50'],
    { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1' } },
  );
  process.exitCode = result.status === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
