import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '@platform-api/client';
import { roleMatrix } from '../../../shared/model/roles.ts';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newPerson, type TestPerson } from '../../../test/support/teams.ts';
import { run } from '../src/cli.ts';
import type { IO } from '../src/io.ts';

// `platform teams …`, `invitations …`, `switch`, `roles` and the global --team, run in-process with
// recording streams against the local gateway. Each user has a config folder of their own, where
// `switch` remembers its team.

let gateway: TestGateway;
let home: string;
beforeAll(async () => {
  gateway = await startGateway();
  home = await mkdtemp(join(tmpdir(), 'platform-cli-teams-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(home, { recursive: true, force: true });
});

interface User extends TestPerson {
  env: Record<string, string>;
}

/** A registered user with a key (PLATFORM_API_KEY) and a config folder of their own. */
async function user(name: string): Promise<User> {
  const person = await newPerson(name);
  return { ...person, env: { PLATFORM_API_KEY: person.key, XDG_CONFIG_HOME: join(home, randomUUID()) } };
}

type Env = Record<string, string>;

/** Runs `platform <argv>` as `who`; its exit code and what it printed on stdout and stderr. */
async function platformText(who: { env: Env }, argv: string[], env: Env = {}) {
  let out = '';
  let err = '';
  const io: IO = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    env: { PLATFORM_API_URL: gateway.baseUrl, PLATFORM_BACKEND_URL: gateway.backendUrl, ...who.env, ...env },
    interactive: false,
    ask: () => Promise.reject(new Error('no terminal')),
    askHidden: () => Promise.reject(new Error('no terminal')),
  };
  const code = await run(argv, io);
  return { code, out, err };
}

/** Runs `platform <argv> --json` as `who`; its exit code and the one JSON document it printed. */
async function platform(who: { env: Env }, argv: string[], env: Env = {}) {
  const { code, out } = await platformText(who, [...argv, '--json'], env);
  return { code, json: JSON.parse(out) as unknown };
}

/** The names of the projects `who` lists, with these extra arguments. */
const projectNames = async (who: User, args: string[] = [], env: Record<string, string> = {}) =>
  ((await platform(who, ['projects', 'list', ...args], env)).json as { name: string }[]).map((p) => p.name);

const personalTeamOf = (who: TestPerson) => `team_${who.userId.slice('usr_'.length)}`;

describe('platform teams and switch', () => {
  it('creates, lists, gets, renames a team; switch remembers it; --team and PLATFORM_TEAM go first', async () => {
    const ada = await user('Ada');
    const created = await platform(ada, ['teams', 'create', 'Acme']);
    expect(created).toMatchObject({ code: 0, json: { name: 'Acme', personal: false, role: 'owner' } });
    const acme = (created.json as { id: string }).id;
    const beta = ((await platform(ada, ['teams', 'create', 'Beta'])).json as { id: string }).id;
    expect((await platform(ada, ['teams', 'list'])).json).toEqual([
      expect.objectContaining({ id: personalTeamOf(ada), personal: true, current: true }),
      expect.objectContaining({ id: beta, name: 'Beta', role: 'owner', current: false }),
      expect.objectContaining({ id: acme, name: 'Acme', role: 'owner', current: false }),
    ]);
    expect((await platform(ada, ['teams', 'get', 'Acme'])).json).toMatchObject({ id: acme, name: 'Acme' });
    expect((await platform(ada, ['teams', 'rename', acme, 'Acme Inc.'])).json).toMatchObject({
      id: acme,
      name: 'Acme Inc.',
    });
    await platform(ada, ['projects', 'create', '--name', 'mine']);

    expect(await platform(ada, ['switch', 'Acme Inc.'])).toMatchObject({ code: 0, json: { id: acme } });
    const settings = join(ada.env.XDG_CONFIG_HOME ?? '', 'platform', 'config.json');
    expect(JSON.parse(await readFile(settings, 'utf8'))).toEqual({ team: acme });
    expect((await stat(settings)).mode & 0o777).toBe(0o600);
    expect((await platform(ada, ['switch'])).json).toMatchObject({ team: { id: acme }, from: 'switched' });
    expect((await platform(ada, ['teams', 'get'])).json).toMatchObject({ id: acme });
    expect(await platform(ada, ['projects', 'create', '--name', 'shared'])).toMatchObject({ code: 0 });

    // Precedence: --team, then PLATFORM_TEAM, then the switched team, then the personal team.
    expect(await projectNames(ada)).toEqual(['shared']);
    expect(await projectNames(ada, [], { PLATFORM_TEAM: beta })).toEqual([]);
    expect(await projectNames(ada, ['--team', personalTeamOf(ada)], { PLATFORM_TEAM: beta })).toEqual([
      'mine',
    ]);
    expect(await projectNames(ada, ['--team', 'Acme Inc.'])).toEqual(['shared']);
    expect((await platform(ada, ['switch'], { PLATFORM_TEAM: beta })).json).toMatchObject({
      team: { id: beta },
      from: 'env',
    });
    expect((await platform(ada, ['teams', 'list'])).json).toEqual([
      expect.objectContaining({ personal: true, current: false }),
      expect.objectContaining({ id: beta, current: false }),
      expect.objectContaining({ id: acme, current: true }),
    ]);

    const listed = (await platformText(ada, ['teams', 'list'])).out.split('\n');
    expect(listed[0]).toMatch(/^CURRENT +ID +NAME +ROLE +PERSONAL$/);
    expect(listed.filter((line) => line.startsWith('*'))).toEqual([
      expect.stringMatching(new RegExp(`^\\* +${acme} +Acme Inc\\. +owner +false$`)),
    ]);
    expect((await platformText(ada, ['switch'])).out).toBe(
      `Acme Inc. (${acme}), owner; from \`platform switch\`\n`,
    );

    expect(await platform(ada, ['switch', '--personal'])).toMatchObject({
      code: 0,
      json: { id: personalTeamOf(ada), personal: true },
    });
    expect(await projectNames(ada)).toEqual(['mine']);
    expect((await platform(ada, ['switch'])).json).toMatchObject({ from: 'personal' });
  });

  it('deletes a team only without projects (409 naming how many), with --yes, never a personal team', async () => {
    const ada = await user('Ada');
    const acme = ((await platform(ada, ['teams', 'create', 'Acme'])).json as { id: string }).id;
    await platform(ada, ['projects', 'create', '--name', 'web', '--team', acme]);
    expect(await platform(ada, ['teams', 'delete', acme])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('--yes') },
    });
    expect(await platform(ada, ['teams', 'delete', acme, '--yes'])).toMatchObject({
      code: 1,
      json: { error: 'conflict', message: expect.stringContaining('1 project') },
    });
    expect(await platform(ada, ['teams', 'delete', personalTeamOf(ada), '--yes'])).toMatchObject({
      code: 1,
      json: { error: 'conflict' },
    });
    await platform(ada, ['projects', 'delete', 'web', '--yes', '--team', acme]);
    expect(await platform(ada, ['teams', 'delete', 'Acme', '--yes'])).toMatchObject({
      code: 0,
      json: { id: acme, deleted: true },
    });
    expect(await platform(ada, ['teams', 'get', acme])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });

  it('refuses an unknown team (not_found, exit 1) and an ambiguous name (usage_error, exit 2)', async () => {
    const ada = await user('Ada');
    await platform(ada, ['teams', 'create', 'Twin']);
    await platform(ada, ['teams', 'create', 'Twin']);
    expect(await platform(ada, ['switch', 'Twin'])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('2 of your teams are named Twin') },
    });
    expect(await platform(ada, ['switch', 'Nowhere'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect(await platform(ada, ['switch', 'team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2Q'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect(await platform(ada, ['projects', 'list', '--team', 'Nowhere'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect(
      (
        await readFile(join(ada.env.XDG_CONFIG_HOME ?? '', 'platform', 'config.json')).catch(() => 'none')
      ).toString(),
    ).toBe('none');
  });

  it('forgets the switched team at the next login', async () => {
    const email = `cli-${randomUUID()}@example.com`;
    const password = 'correct horse battery';
    await new PlatformClient({ baseUrl: gateway.baseUrl }).auth.register({ email, password });
    const who = {
      env: { XDG_CONFIG_HOME: join(home, randomUUID()), PLATFORM_EMAIL: email, PLATFORM_PASSWORD: password },
    };
    expect((await platform(who, ['login'])).code).toBe(0);
    const acme = ((await platform(who, ['teams', 'create', 'Acme'])).json as { id: string }).id;
    await platform(who, ['switch', acme]);
    expect((await platform(who, ['switch'])).json).toMatchObject({ team: { id: acme }, from: 'switched' });
    expect((await platform(who, ['login'])).code).toBe(0);
    expect((await platform(who, ['switch'])).json).toMatchObject({
      team: { personal: true },
      from: 'personal',
    });
  });
});

describe('platform teams members and invitations', () => {
  it('invites by email, accepts the code, lists members, changes a role and removes a member', async () => {
    const [ada, bob] = await Promise.all([user('Ada'), user('Bob')]);
    const acme = ((await platform(ada, ['teams', 'create', 'Acme'])).json as { id: string }).id;
    await platform(ada, ['switch', acme]);
    expect(await platform(ada, ['teams', 'invite', bob.email])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: '--role is required' },
    });
    expect(await platform(ada, ['teams', 'invite', bob.email, '--role', 'boss'])).toMatchObject({
      code: 1,
      json: { error: 'validation_error', field: 'role' },
    });
    const invited = await platform(ada, ['teams', 'invite', bob.email, '--role', 'developer']);
    expect(invited).toMatchObject({
      code: 0,
      json: { email: bob.email, role: 'developer', code: expect.stringMatching(/^inv_/) },
    });
    const { id: invitationId, code } = invited.json as { id: string; code: string };
    expect((await platform(ada, ['invitations', 'list'])).json).toEqual([
      expect.objectContaining({ id: invitationId, email: bob.email }),
    ]);

    expect(await platform(bob, ['invitations', 'accept', code])).toMatchObject({
      code: 0,
      json: { team: { id: acme, name: 'Acme' }, role: 'developer' },
    });
    expect(await platform(bob, ['invitations', 'accept', code])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect((await platform(ada, ['invitations', 'list'])).json).toEqual([]);
    // Bob names the team by its name, as a member of it.
    const members = (await platform(bob, ['teams', 'members', '--team', 'Acme'])).json as {
      email: string;
      role: string;
    }[];
    expect(members.map(({ email, role }) => [email, role]).sort()).toEqual(
      [
        [ada.email, 'owner'],
        [bob.email, 'developer'],
      ].sort(),
    );

    expect(await platform(ada, ['teams', 'role', bob.email, 'viewer'])).toMatchObject({
      code: 0,
      json: { userId: bob.userId, role: 'viewer' },
    });
    expect(await platform(bob, ['projects', 'create', '--name', 'x', '--team', acme])).toMatchObject({
      code: 1,
      json: { error: 'forbidden' },
    });
    // In words, the team is named as Bob named it; by id, as the id he typed.
    expect((await platformText(bob, ['projects', 'create', '--name', 'x', '--team', 'Acme'])).err).toContain(
      `role (projects.write) in team Acme (${acme}); you are a viewer`,
    );
    expect((await platformText(bob, ['projects', 'create', '--name', 'x', '--team', acme])).err).toContain(
      `role (projects.write) in team ${acme}; you are a viewer`,
    );
    expect(await platform(ada, ['teams', 'role', ada.email, 'admin'])).toMatchObject({
      code: 1,
      json: { error: 'conflict', message: expect.stringContaining('last owner') },
    });
    expect(await platform(ada, ['teams', 'remove', bob.userId, '--yes'])).toMatchObject({
      code: 0,
      json: { teamId: acme, userId: bob.userId, removed: true },
    });
    expect(await platform(bob, ['projects', 'list', '--team', acme])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect(await platform(ada, ['teams', 'remove', 'nobody@example.com', '--yes'])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });

  it('revokes an invitation, whose code then joins nothing; the personal team takes none, saying where to go', async () => {
    const [ada, bob] = await Promise.all([user('Ada'), user('Bob')]);
    // No team chosen: the CLI says how to choose or make one; named, the personal team is the API's 409.
    expect(await platform(ada, ['teams', 'invite', bob.email, '--role', 'viewer'])).toMatchObject({
      code: 2,
      json: {
        error: 'usage_error',
        message: expect.stringContaining('`platform switch <team>` or --team <team>'),
      },
    });
    const personal = ((await platform(ada, ['teams', 'get'])).json as { id: string }).id;
    expect(
      await platform(ada, ['teams', 'invite', bob.email, '--role', 'viewer', '--team', personal]),
    ).toMatchObject({ code: 1, json: { error: 'conflict' } });
    const acme = ((await platform(ada, ['teams', 'create', 'Acme'])).json as { id: string }).id;
    const { id, code } = (
      await platform(ada, ['teams', 'invite', bob.email, '--role', 'viewer', '--team', acme])
    ).json as { id: string; code: string };
    expect(await platform(ada, ['invitations', 'revoke', id, '--yes', '--team', acme])).toMatchObject({
      code: 0,
      json: { id, revoked: true },
    });
    expect(await platform(bob, ['invitations', 'accept', code])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
  });

  it('lists the roles as the API has them', async () => {
    const ada = await user('Ada');
    expect(await platform(ada, ['roles'])).toEqual({ code: 0, json: roleMatrix() });
  });
});
