import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_BUILDER_DELAY_MS } from '#infra/local/builder.ts';
import { DEFAULT_SCHEDULE_INTERVAL_MS } from '#infra/local/schedules.ts';
import { DomainSettingsSchema } from '#shared/domain/custom-domains/settings.ts';
import { ConfigSchema } from '#shared/runtime/config.ts';
import { WebhookSettingsSchema } from '#shared/webhooks/settings.ts';

// docs/running-locally.md's settings table states each default; the code declares it. Every setting
// of the config schema must have a row, and every default the code declares must be the row's.

const TABLE = join(import.meta.dirname, '../../../docs/running-locally.md');

/** `| \`NAME\` | \`default\` ... |` rows: the name and the first code span of the default column. */
function documentedDefaults(markdown: string): Map<string, string | undefined> {
  const rows = new Map<string, string | undefined>();
  for (const line of markdown.split('\n')) {
    const cells = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line);
    if (cells?.[1]) rows.set(cells[1], /`([^`]*)`/.exec(cells[2] ?? '')?.[1]);
  }
  return rows;
}

const documented = documentedDefaults(readFileSync(TABLE, 'utf8'));

/** What the code falls back to when a variable is unset, as the table writes it. */
const declaredDefaults: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries({
      ...ConfigSchema.parse({}),
      ...WebhookSettingsSchema.parse({}),
      ...DomainSettingsSchema.parse({}),
    })
      // A setting with no default (LOG_FORMAT: decided by the terminal) has nothing to compare.
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)]),
  ),
  LOCAL_BUILDER_DELAY_MS: String(DEFAULT_BUILDER_DELAY_MS),
  DOMAIN_RECHECK_INTERVAL_MS: String(DEFAULT_SCHEDULE_INTERVAL_MS),
};

describe('the settings table', () => {
  it.each(Object.entries(declaredDefaults))(
    'states the default of %s that the code declares',
    (name, value) => {
      expect({ name, default: documented.get(name) }).toEqual({ name, default: value });
    },
  );

  it('reads the default column as written', () => {
    const table = '| `A_B` | `2592000` (30 days) | x |\n| `C` | unset | y |\n| not a row |';
    expect([...documentedDefaults(table)]).toEqual([
      ['A_B', '2592000'],
      ['C', undefined],
    ]);
  });
});
