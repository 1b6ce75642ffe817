import type { Schemas } from '@platform-api/client';
import { AUDIT_WIDTH, auditTable } from '../src/audit-lines.ts';

// `platform audit`'s table, from events made here: within 120 columns however long an event's
// changes, its actor or its target, and nothing of them lost (what does not fit goes on under the
// CHANGES column; `--wide` has every field whole). Against the API: test/audit.test.ts.

type AuditEvent = Schemas['AuditEvent'];

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: 'aud_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
  teamId: 'team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
  at: '2026-11-28T18:05:14.123Z',
  action: 'project.updated',
  outcome: 'success',
  actor: { type: 'user', id: 'usr_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', email: 'ada@example.com' },
  target: { type: 'project', id: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A' },
  projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A',
  ip: '203.0.113.9',
  userAgent: 'platform-cli/0.1.0',
  requestId: 'req-1',
  changes: { name: { from: 'web', to: 'site' } },
  ...overrides,
});

const variables = Array.from({ length: 12 }, (_, i) => ({
  key: `VARIABLE_NUMBER_${i}`,
  type: 'secret',
  targets: ['production', 'preview'],
}));

describe('the audit table', () => {
  it('keeps every line within 120 columns and goes on under CHANGES with what does not fit', () => {
    const long = event({
      action: 'env.replaced',
      actor: { type: 'user', id: 'usr_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', email: `${'a'.repeat(60)}@example.com` },
      target: { type: 'domain', id: `${'shop'.repeat(20)}.example.com` },
      changes: { variables: { from: [], to: variables } },
    });
    const lines = auditTable([long, event({})]).split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(AUDIT_WIDTH);
    expect(lines.length).toBeGreaterThan(3);
    const column = (lines[0] ?? '').indexOf('CHANGES');
    const continued = lines.slice(2, -1);
    for (const line of continued) expect(line.slice(0, column).trim()).toBe('');
    const changes = [lines[1]?.slice(column), ...continued.map((line) => line.slice(column))].join('');
    for (const { key } of variables) expect(changes).toContain(`${key}(secret:production,preview)`);
    expect(lines.at(-1)).toMatch(
      /^11-28 18:05:14\s+project\.updated\s+success\s+ada@example\.com\s+prj_…0Y1Z2A\s+name: web → site$/,
    );
  });

  it('names a token by its name and the platform as itself; --wide has ids whole, the project and the address', () => {
    const token = event({ actor: { type: 'token', id: 'tok_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', name: 'ci' } });
    const platform = event({ actor: { type: 'system', id: 'platform' }, action: 'domain.checked' });
    expect(auditTable([token, platform]).split('\n').slice(1)).toEqual([
      expect.stringMatching(/\s+token ci\s+/),
      expect.stringMatching(/\s+platform\s+/),
    ]);
    expect(auditTable([token], true).split('\n')[1]).toBe(
      '2026-11-28T18:05:14.123Z  project.updated  success  token:tok_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A (ci)  project:prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A  prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A  203.0.113.9  name: web → site',
    );
  });
});
