import { checkRecords } from '#shared/domain/custom-domains/checks.ts';
import type { DomainSettings } from '#shared/domain/custom-domains/settings.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';

// A domain's records as a check reads them from DNS (a server this file controls, on loopback): a
// name not found is `missing` without an error only when the server sees public DNS; an apex's
// routing record is an ALIAS, read as addresses. (Over HTTP: test/integration/domains.test.ts.)

const TARGET = 'edge.platform.test';
const PROJECT = 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A';

let dns: TestDnsServer;
let settings: DomainSettings;

beforeAll(async () => {
  dns = await startDnsServer();
  settings = { dnsServers: [dns.address], target: TARGET, checkTimeoutMs: 1000 };
});
afterAll(() => dns.close());
afterEach(() => {
  dns.cutOff = false;
  dns.topLevelSilent = false;
});

type RoutingType = 'CNAME' | 'ALIAS';
const domain = (name: string, routing: RoutingType = 'CNAME') => ({
  projectId: PROJECT,
  name,
  records: [{ purpose: 'routing' as const, type: routing }] as never,
});
const routingOf = async (name: string, routing?: RoutingType) =>
  (await checkRecords(domain(name, routing), settings))[1];

describe('a record DNS has no name for', () => {
  it('is missing with no error from a server that sees public DNS', async () => {
    const records = await checkRecords(domain('new.example.com'), settings);
    expect(records.map(({ status, error }) => ({ status, error }))).toEqual([
      { status: 'missing', error: null },
      { status: 'missing', error: null },
    ]);
  });

  it('says why when the server cannot see public DNS (it does not even know the top-level domain)', async () => {
    dns.cutOff = true;
    const [ownership, routing] = await checkRecords(domain('offline.example.com'), settings);
    expect(ownership).toMatchObject({
      status: 'missing',
      error: `the DNS server could not find the top-level domain com (ENOTFOUND), so it cannot see public DNS: _platform-challenge.offline.example.com was not checked`,
    });
    expect(routing).toMatchObject({
      status: 'missing',
      error: expect.stringContaining('cannot see public DNS: offline.example.com was not checked'),
    });
  });

  it('says DNS did not answer, not that it cannot see public DNS, when the question about the top-level domain times out', async () => {
    dns.topLevelSilent = true;
    const [ownership, routing] = await checkRecords(domain('unsure.example.com'), settings);
    expect(ownership).toMatchObject({
      status: 'missing',
      error:
        'DNS did not answer for com within 1 s, so whether _platform-challenge.unsure.example.com exists is not known: it was not checked',
    });
    expect(routing).toMatchObject({
      status: 'missing',
      error: expect.stringContaining('whether unsure.example.com exists is not known'),
    });
  });

  it('is no error when the name exists without that record (no CNAME beside a TXT)', async () => {
    dns.setTxt('bare.example.com', ['v=spf1 -all']);
    expect(await routingOf('bare.example.com')).toMatchObject({ status: 'missing', error: null });
  });
});

describe("an apex's routing record (ALIAS)", () => {
  beforeAll(() => dns.setAddresses(TARGET, ['192.0.2.10', '192.0.2.11', '2001:db8::10']));

  it("is ok when the name's addresses include one of the target's, flattened by the provider", async () => {
    dns.setAddresses('flat.example', ['192.0.2.11', '2001:db8::10']);
    expect(await routingOf('flat.example', 'ALIAS')).toEqual({
      purpose: 'routing',
      type: 'ALIAS',
      name: 'flat.example',
      requiredValue: TARGET,
      observedValues: ['192.0.2.11', '2001:db8::10'],
      status: 'ok',
      error: null,
    });
  });

  it("is a mismatch showing the addresses it has when none is the target's", async () => {
    dns.setAddresses('old.example', ['198.51.100.7']);
    expect(await routingOf('old.example', 'ALIAS')).toMatchObject({
      observedValues: ['198.51.100.7'],
      status: 'mismatch',
      error: null,
    });
  });

  it('is missing when the name has no address', async () => {
    expect(await routingOf('unrouted.example', 'ALIAS')).toMatchObject({
      observedValues: [],
      status: 'missing',
      error: null,
    });
  });

  it('says so when the target itself has no address to compare with', async () => {
    dns.setAddresses('somewhere.example', ['198.51.100.7']);
    const check = await checkRecords(domain('somewhere.example', 'ALIAS'), {
      ...settings,
      target: 'nowhere.platform.test',
    });
    expect(check[1]).toMatchObject({
      status: 'mismatch',
      error: 'nowhere.platform.test has no addresses in DNS',
    });
  });
});
