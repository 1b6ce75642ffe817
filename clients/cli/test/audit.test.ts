import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Schemas } from '@platform-api/client';
import { eventually, newWatchedPerson, startAuditedGateway, watch } from '../../../test/support/audit.ts';
import type { TestGateway } from '../../../test/support/gateway.ts';
import { type Env, inProcessCli } from './support/in-process.ts';

// `platform audit`, run in-process with recording streams against the local gateway, with the audit
// log's stream consumer recording the events of this file's people and teams.

type AuditEvent = Schemas['AuditEvent'];
let gateway: TestGateway;
let home: string;
beforeAll(async () => {
  gateway = await startAuditedGateway();
  home = await mkdtemp(join(tmpdir(), 'platform-cli-audit-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(home, { recursive: true, force: true });
});

/** A registered user with a key (PLATFORM_API_KEY) and a config folder of their own, watched. */
async function user(name: string) {
  const person = await newWatchedPerson(name);
  return { ...person, env: { PLATFORM_API_KEY: person.key, XDG_CONFIG_HOME: join(home, randomUUID()) } };
}

const { platform, platformText } = inProcessCli(() => gateway);

const audit = async (env: Env, argv: string[] = []) =>
  (await platform(env, ['audit', ...argv])).json as AuditEvent[];

/** `text` as a regular expression matching itself (an email's dots and plus signs). */
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The version in clients/<folder>/package.json. */
const packageVersion = (folder: string): string =>
  (
    JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', folder, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const actions = (events: AuditEvent[]) => events.map((event) => `${event.action} ${event.outcome}`);

/**
 * Ada's team Acme with Bob in it as a developer, and in it: a project `web` renamed `site`, and
 * Bob's refused attempt to delete it. The log, once every event is recorded.
 */
async function acmeWithHistory() {
  const [ada, bob] = await Promise.all([user('Ada'), user('Bob')]);
  const team = ((await platform(ada.env, ['teams', 'create', 'Acme'])).json as { id: string }).id;
  watch(team);
  const acme = { ...ada.env, PLATFORM_TEAM: team };
  const { code } = (await platform(acme, ['teams', 'invite', bob.email, '--role', 'developer'])).json as {
    code: string;
  };
  expect((await platform(bob.env, ['invitations', 'accept', code])).code).toBe(0);
  const project = ((await platform(acme, ['projects', 'create', '--name', 'web'])).json as { id: string }).id;
  expect((await platform(acme, ['projects', 'update', project, '--name', 'site'])).code).toBe(0);
  const refused = await platform({ ...bob.env, PLATFORM_TEAM: team }, [
    'projects',
    'delete',
    project,
    '--yes',
  ]);
  expect(refused).toMatchObject({ code: 1, json: { error: 'forbidden' } });
  const log = await eventually(
    () => audit(acme),
    (events) => events.length >= 6,
  );
  return { ada, bob, team, project, acme, log };
}

describe('platform audit', () => {
  it("lists the team's changes and refusals newest first, with who did each, to what, and what changed", async () => {
    const { ada, bob, team, project, log } = await acmeWithHistory();
    expect(actions(log)).toEqual([
      'project.deleted denied',
      'project.updated success',
      'project.created success',
      'member.joined success',
      'invitation.created success',
      'team.created success',
    ]);
    const [refusal, renamed] = log;
    expect(refusal).toEqual({
      id: expect.stringMatching(/^aud_/),
      teamId: team,
      at: expect.any(String),
      action: 'project.deleted',
      outcome: 'denied',
      actor: { type: 'user', id: bob.userId, email: bob.email, keyId: expect.stringMatching(/^key_/) },
      target: { type: 'project', id: project },
      projectId: project,
      requestId: expect.any(String),
      ip: expect.any(String),
      userAgent: expect.any(String),
    });
    expect(renamed).toMatchObject({
      actor: { type: 'user', id: ada.userId, email: ada.email },
      target: { type: 'project', id: project },
      changes: { name: { from: 'web', to: 'site' } },
    });
    expect(log.map((event) => event.at)).toEqual(
      log
        .map((event) => event.at)
        .sort()
        .reverse(),
    );
    // Each was a CLI command: the log says so, and which version, with the SDK's token after it.
    expect(new Set(log.map((event) => event.userAgent))).toEqual(
      new Set([`platform-cli/${packageVersion('cli')} platform-sdk/${packageVersion('typescript')}`]),
    );
  });

  it('prints an event a line within 120 columns, who acted by email, a refusal marked DENIED, what changed as from → to; --wide every id whole', async () => {
    const { ada, bob, project, acme } = await acmeWithHistory();
    const { code, out } = await platformText(acme, ['audit']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME \(UTC\)\s+ACTION\s+OUTCOME\s+ACTOR\s+TARGET\s+CHANGES$/);
    expect(lines).toHaveLength(7);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    const time = '\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}';
    const shortProject = `prj_…${project.slice(-6)}`;
    const fitted = (email: string) => escaped(email.length <= 20 ? email : `${email.slice(0, 19)}…`);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${time}\\s+project\\.deleted\\s+DENIED\\s+${fitted(bob.email)}\\s+${escaped(shortProject)}$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^${time}\\s+project\\.updated\\s+success\\s+${fitted(ada.email)}\\s+${escaped(shortProject)}\\s+name: web → site$`,
      ),
    );

    const wide = (await platformText(acme, ['audit', '--wide'])).out.trimEnd().split('\n');
    expect(wide[0]).toMatch(/^TIME\s+ACTION\s+OUTCOME\s+ACTOR\s+TARGET\s+PROJECT\s+IP\s+CHANGES$/);
    const iso = '\\d{4}-\\d{2}-\\d{2}T\\S+Z';
    expect(wide[1]).toMatch(
      new RegExp(
        `^${iso}\\s+project\\.deleted\\s+DENIED\\s+user:${bob.userId} \\(${escaped(bob.email)}\\)\\s+project:${project}\\s+${project}\\s+\\S+$`,
      ),
    );
  });

  it("shows a variable's change by its key, type and targets, never its value", async () => {
    const { project, acme } = await acmeWithHistory();
    const value = `s3cret-${randomUUID()}`;
    const added = await platform(acme, [
      'env',
      'add',
      project,
      '--key',
      'API_TOKEN',
      '--value',
      value,
      '--secret',
      '--targets',
      'production',
    ]);
    expect(added.code).toBe(0);
    const [event] = await eventually(
      () => audit(acme, ['--action', 'env.variable_created']),
      (events) => events.length > 0,
    );
    expect(event?.changes).toEqual({
      variables: { from: null, to: [{ key: 'API_TOKEN', targets: ['production'], type: 'secret' }] },
    });
    const { out } = await platformText(acme, ['audit', '--action', 'env.variable_created', '--wide']);
    expect(out).toContain('variables: API_TOKEN(secret:production)');
    const everything = `${JSON.stringify(await audit(acme, ['--all']))}${(await platformText(acme, ['audit'])).out}`;
    expect(everything).not.toContain(value);
  });

  it('filters by action, outcome, actor, project (by name), time, and stops at --limit', async () => {
    const { bob, acme, log } = await acmeWithHistory();
    const only = async (argv: string[]) => actions(await audit(acme, argv));
    expect(await only(['--action', 'project.updated'])).toEqual(['project.updated success']);
    expect(await only(['--outcome', 'denied'])).toEqual(['project.deleted denied']);
    expect(await only(['--actor', bob.userId])).toEqual(['project.deleted denied', 'member.joined success']);
    // A person by the email the log shows, in any case; an action by its first word.
    expect(await only(['--actor', bob.email.toUpperCase()])).toEqual([
      'project.deleted denied',
      'member.joined success',
    ]);
    expect(await only(['--actor', `nobody-${randomUUID()}@example.com`])).toEqual([]);
    expect(await only(['--action', 'project'])).toEqual([
      'project.deleted denied',
      'project.updated success',
      'project.created success',
    ]);
    expect(await only(['--action', 'project.*'])).toEqual(await only(['--action', 'project']));
    expect(await only(['--project', 'site'])).toEqual([
      'project.deleted denied',
      'project.updated success',
      'project.created success',
    ]);
    expect(await only(['--since', '1h', '--until', new Date(Date.now() + 60_000).toISOString()])).toEqual(
      actions(log),
    );
    expect(await only(['--until', '2020-01-01'])).toEqual([]);
    expect(await only(['--since', log[1]?.at ?? ''])).toEqual([
      'project.deleted denied',
      'project.updated success',
    ]);

    expect(await audit(acme, ['--limit', '2'])).toEqual(log.slice(0, 2));
    expect(await audit(acme, ['--all'])).toEqual(log);
    const { out } = await platformText(acme, ['audit', '--limit', '2']);
    expect(out.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^TIME/),
      expect.stringContaining('project.deleted'),
      expect.stringContaining('project.updated'),
      'More events match: narrow them (--since, --until, --action, --actor, --project, --outcome), or --limit <n> / --all',
    ]);
  });

  it('is refused to a developer and to a team token, and records the refusal', async () => {
    const { bob, team, acme } = await acmeWithHistory();
    const asBob = await platform({ ...bob.env, PLATFORM_TEAM: team }, ['audit']);
    expect(asBob).toMatchObject({ code: 1, json: { error: 'forbidden' } });

    const token = (
      await platform(acme, ['tokens', 'create', '--name', 'ci', '--scope', 'read', '--expires-in-days', '1'])
    ).json as { apiKey: string };
    const asToken = await platform(
      { PLATFORM_API_KEY: token.apiKey, XDG_CONFIG_HOME: join(home, randomUUID()) },
      ['audit', '--team', team],
    );
    expect(asToken).toMatchObject({ code: 1, json: { error: 'forbidden' } });

    const refusals = await eventually(
      () => audit(acme, ['--action', 'audit.read']),
      (events) => events.length >= 2,
    );
    expect(refusals.map((event) => [event.outcome, event.actor.type])).toEqual([
      ['denied', 'token'],
      ['denied', 'user'],
    ]);
  });

  it('refuses bad flags before asking the API (usage_error, exit 2)', async () => {
    // Nothing listens there: a request would be a connection_error, exit 1.
    const env = { PLATFORM_API_KEY: 'plat_unused', PLATFORM_API_URL: 'http://127.0.0.1:9/v1' };
    const refused = async (argv: string[], message: string) =>
      expect(await platform(env, ['audit', ...argv])).toEqual({
        code: 2,
        json: { error: 'usage_error', message: expect.stringContaining(message) },
      });
    await refused(['--since', 'yesterday'], '--since must be a date and time with its zone');
    await refused(['--until', '2026-11-25T09:15'], '--until must be a date and time with its zone');
    await refused(
      ['--since', '2026-11-25T10:00:00Z', '--until', '2026-11-25T09:00:00Z'],
      '--since (2026-11-25T10:00:00.000Z) is after --until',
    );
    await refused(['--outcome', 'failed'], '--outcome must be success or denied, not failed');
    await refused(['--action', 'project created'], '--action must be an action such as project.created');
    await refused(['--actor', 'a b'], '--actor must be an email, a user id');
    await refused(['--limit', 'ten'], '--limit must be a whole number');
    await refused(['--limit', '0'], '--limit must be at least 1');
    await refused(['--limit', '5', '--all'], 'Give --limit or --all, not both');
  });
});
