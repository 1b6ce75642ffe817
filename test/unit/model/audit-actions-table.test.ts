import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditActions } from '#shared/model/audit.ts';

// docs/audit-log.md's table of actions tells users what each event means; shared/model/audit.ts is
// the list events are made from. The table must name exactly those actions, in order, each with the
// target type its events carry.

const GUIDE = join(import.meta.dirname, '../../../docs/audit-log.md');

/** The `## Actions` section's rows: `| \`action\` | words | \`target\` (words) |`. */
function documentedActions(markdown: string): [string, string][] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Actions\n')) ?? '';
  const rows: [string, string][] = [];
  for (const line of section.split('\n')) {
    const cells = /^\| `([a-z_]+\.[a-z_]+)` \|.*\| `([a-z]+)`[^|]*\|$/.exec(line);
    if (cells?.[1] && cells[2]) rows.push([cells[1], cells[2]]);
  }
  return rows;
}

describe("docs/audit-log.md's actions table", () => {
  it('lists every action of shared/model/audit.ts, in order, with its target type', () => {
    expect(documentedActions(readFileSync(GUIDE, 'utf8'))).toEqual(
      Object.entries(auditActions).map(([action, spec]) => [action, spec.target]),
    );
  });

  it('reads only the rows of its own section', () => {
    const markdown = [
      '## Actions',
      '| action | when | target |',
      '|---|---|---|',
      '| `project.created` | `POST /projects` | `project` |',
      '| `domain.created` | a domain | `domain` (its name) |',
      '## Other',
      '| `team.created` | x | `team` |',
    ].join('\n');
    expect(documentedActions(markdown)).toEqual([
      ['project.created', 'project'],
      ['domain.created', 'domain'],
    ]);
  });
});
