import { randomUUID } from 'node:crypto';
import { startLocalSchedules } from '#infra/local/schedules.ts';
import { clock } from '#shared/runtime/clock.ts';
import type { TestDnsServer } from '../support/dns-server.ts';
import { startDnsServer } from '../support/dns-server.ts';
import type { TestGateway } from '../support/gateway.ts';
import { startGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { createOwnDomainsTable, ownDomainsTableSettings } from '../support/own-domains-table.ts';
import { overrideSettings } from '../support/settings.ts';
import { newCaller } from '../support/users.ts';

// The background check of a custom domain when DNS does not answer: the domain stays pending, says
// why on its records, is checked again later, and the check gives up at its limit instead of holding
// the round. DNS is a server this file controls (silent here), the checks run by the local schedule
// every 100 ms, on a domains table of this file's own: moving the clock makes every pending domain in
// the table due, which must not reach another file's domains (nor theirs cost this file's round).

type Repeating = import('#infra/local/every.ts').Repeating;

const CHECK_TIMEOUT_MS = 1000;
const MINUTE = 60_000;

let dns: TestDnsServer;
let gateway: TestGateway;
let schedules: Repeating;
let restoreSettings: () => void;

beforeAll(async () => {
  dns = await startDnsServer();
  restoreSettings = overrideSettings({
    DNS_SERVERS: dns.address,
    DOMAIN_TARGET: 'edge.platform.test',
    DOMAIN_CHECK_TIMEOUT_MS: String(CHECK_TIMEOUT_MS),
    ...ownDomainsTableSettings(),
  });
  await createOwnDomainsTable();
  gateway = await startGateway();
  schedules = await startLocalSchedules({ intervalMs: 100 });
}, 30_000);

const realNow = Date.now;
afterAll(async () => {
  if (clock) clock.now = realNow;
  await schedules?.stop();
  await gateway?.close();
  await dns?.close();
  restoreSettings?.();
});

interface Domain {
  name: string;
  status: 'pending' | 'verified' | 'expired';
  records: { name: string; observedValues: string[]; status: string; error: string | null }[];
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
}

describe('the background check, when DNS does not answer', () => {
  it('leaves the domain pending with the reason on its records, checks it again later, and ends at its limit', async () => {
    const { key } = await newCaller();
    const project = await call(`${gateway.baseUrl}/projects`, {
      method: 'POST',
      key,
      json: { name: 'site' },
    });
    expect(project.status).toBe(201);
    const domainsUrl = `${gateway.baseUrl}/projects/${(project.body as { id: string }).id}/domains`;
    const name = `silent${randomUUID().slice(0, 8)}.example.com`;
    const added = await call(domainsUrl, { method: 'POST', key, json: { name } });
    expect(added.status).toBe(201);
    const { nextCheckAt: firstDue } = added.body as Domain;

    dns.silent = true;
    // The clock a second past the first check: the next round takes it. The check cannot start before.
    const movedAt = realNow();
    const offset = Date.parse(firstDue ?? '') + 1000 - movedAt;
    clock.now = () => realNow() + offset;
    let domain = added.body as Domain;
    for (let round = 0; round < 100 && domain.lastCheckedAt === null; round++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const read = await call(`${domainsUrl}/${name}`, { key });
      expect(read.status).toBe(200);
      domain = read.body as Domain;
    }

    expect(dns.questions).toEqual(
      expect.arrayContaining([`TXT _platform-challenge.${name}`, `CNAME ${name}`]),
    );
    expect(domain).toMatchObject({
      status: 'pending',
      records: [
        {
          observedValues: [],
          status: 'missing',
          error: `DNS did not answer for _platform-challenge.${name} within ${CHECK_TIMEOUT_MS / 1000} s`,
        },
        {
          observedValues: [],
          status: 'missing',
          error: `DNS did not answer for ${name} within ${CHECK_TIMEOUT_MS / 1000} s`,
        },
      ],
    });
    // Checked again later: two minutes after this check, past the first due time.
    const checkedAt = Date.parse(domain.lastCheckedAt ?? '');
    expect(Date.parse(domain.nextCheckAt ?? '') - checkedAt).toBe(2 * MINUTE);
    expect(Date.parse(domain.nextCheckAt ?? '')).toBeGreaterThan(Date.parse(firstDue ?? ''));
    // The check ended at its limit, not the resolver's: left to its defaults, Node's resolver waits
    // about 25 s for a silent server. The margin is the round's wait, query and write on a busy store.
    expect(checkedAt - offset - movedAt).toBeLessThan(CHECK_TIMEOUT_MS + 12_000);
  });
});
