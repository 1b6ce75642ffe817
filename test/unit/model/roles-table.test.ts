import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { permissionsOf, TEAM_ROLES, type TeamRole } from '#shared/model/roles.ts';

// docs/teams.md's roles table says what each role adds to the one before it; shared/model/roles.ts
// is what the checks and `GET /roles` read. The table must say exactly that, role by role, in order.

const GUIDE = join(import.meta.dirname, '../../../docs/teams.md');

/** `| \`role\` | \`perm\`, \`perm\` | words |` rows: the role and the code spans of its second column. */
function documentedRoles(markdown: string): [string, string[]][] {
  const rows: [string, string[]][] = [];
  for (const line of markdown.split('\n')) {
    const cells = /^\| `([a-z]+)` \| ([^|]*) \|/.exec(line);
    if (cells?.[1])
      rows.push([cells[1], [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '')]);
  }
  return rows;
}

/** What a role holds beyond the role before it. */
const addedBy = (role: TeamRole, i: number): string[] => {
  const below = new Set<string>(i === 0 ? [] : permissionsOf(TEAM_ROLES[i - 1] ?? role));
  return permissionsOf(role).filter((permission) => !below.has(permission));
};

describe("docs/teams.md's roles table", () => {
  it('lists every role, lowest first, with exactly the permissions it adds', () => {
    expect(documentedRoles(readFileSync(GUIDE, 'utf8'))).toEqual(
      TEAM_ROLES.map((role, i) => [role, addedBy(role, i)]),
    );
  });

  it('reads a row as written', () => {
    const table = '| role | adds |\n|---|---|\n| `viewer` | `a.read`, `b.read` | reads |\n| not a row |';
    expect(documentedRoles(table)).toEqual([['viewer', ['a.read', 'b.read']]]);
  });
});
