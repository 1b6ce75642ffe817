import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newPerson } from '../../../test/support/teams.ts';
import { type Env, inProcessCli } from './support/in-process.ts';

// `platform tokens list|create|revoke`, and a team token as the CLI's key (PLATFORM_API_KEY), run
// in-process with recording streams against the local gateway. Each user has a config folder of their
// own, where `switch` remembers its team.

let gateway: TestGateway;
let home: string;
beforeAll(async () => {
  gateway = await startGateway();
  home = await mkdtemp(join(tmpdir(), 'platform-cli-tokens-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(home, { recursive: true, force: true });
});

/** A registered user with a key (PLATFORM_API_KEY) and a config folder of their own. */
async function user(name: string) {
  const person = await newPerson(name);
  return { ...person, env: { PLATFORM_API_KEY: person.key, XDG_CONFIG_HOME: join(home, randomUUID()) } };
}

const { platform, platformText } = inProcessCli(() => gateway);

interface Created {
  apiKey: string;
  token: { id: string; prefix: string; name: string };
}

/** Ada, a team of hers with a project `web`, and the team's id. */
async function adaWithTeam() {
  const ada = await user('Ada');
  const team = ((await platform(ada.env, ['teams', 'create', 'Acme'])).json as { id: string }).id;
  const web = (
    (await platform(ada.env, ['projects', 'create', '--name', 'web', '--team', team])).json as { id: string }
  ).id;
  return { ada, team, web };
}

const projectNames = async (env: Env, argv: string[] = []) =>
  ((await platform(env, ['projects', 'list', ...argv])).json as { name: string }[]).map((p) => p.name);

describe('platform tokens', () => {
  it('creates a token (its secret shown once, with a warning), lists it without the secret, and revokes it', async () => {
    const { ada, team, web } = await adaWithTeam();
    const created = await platform(ada.env, [
      'tokens',
      'create',
      '--name',
      'github actions',
      '--scope',
      'read',
      '--scope',
      'write,build',
      '--project',
      'web',
      '--target',
      'preview',
      '--expires-in-days',
      '30',
      '--team',
      team,
    ]);
    expect(created).toEqual({
      code: 0,
      json: {
        apiKey: expect.stringMatching(/^platt_[0-9A-Za-z]{38}$/),
        token: expect.objectContaining({
          name: 'github actions',
          scopes: ['read', 'write', 'build'],
          projectIds: [web],
          targets: ['preview'],
          createdBy: ada.userId,
          lastUsedAt: null,
        }),
      },
    });
    const { apiKey, token } = created.json as Created;

    await platform(ada.env, ['switch', team]);
    const shown = await platformText(ada.env, [
      'tokens',
      'create',
      '--name',
      'deploys',
      '--scope',
      'read',
      '--expires-in-days',
      '1',
    ]);
    expect(shown.code).toBe(0);
    const secret = shown.out.trimEnd().split('\n').at(-1) ?? '';
    expect(secret).toMatch(/^platt_/);
    expect(shown.out).toContain('shown this once');
    expect(shown.out).toContain('cannot be shown again');

    const listed = await platformText(ada.env, ['tokens', 'list', '--json']);
    expect(listed.out).not.toContain(apiKey);
    expect(listed.out).not.toContain(secret);
    expect((JSON.parse(listed.out) as { name: string }[]).map((t) => t.name)).toEqual([
      'deploys',
      'github actions',
    ]);
    expect((await platformText(ada.env, ['tokens', 'list'])).out).toMatch(
      new RegExp(`^${token.id} +github actions +${token.prefix} +read,write,build +${web} +preview `, 'm'),
    );

    expect(await platform({ PLATFORM_API_KEY: apiKey }, ['projects', 'get', 'web'])).toMatchObject({
      code: 0,
    });
    expect(await platform(ada.env, ['tokens', 'revoke', token.id])).toMatchObject({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('--yes') },
    });
    expect(await platform(ada.env, ['tokens', 'revoke', token.id, '--yes'])).toEqual({
      code: 0,
      json: { id: token.id, revoked: true },
    });
    expect(await platform({ PLATFORM_API_KEY: apiKey }, ['projects', 'get', 'web'])).toMatchObject({
      code: 1,
      json: { error: 'unauthorized' },
    });
    // Still listed, as revoked.
    expect((await platform(ada.env, ['tokens', 'list'])).json).toEqual([
      expect.not.objectContaining({ revokedAt: expect.anything() }),
      expect.objectContaining({ id: token.id, revokedAt: expect.any(String) }),
    ]);
  });

  it('refuses a token without --scope or --expires-in-days before asking the API (usage_error, exit 2)', async () => {
    const ada = await user('Ada');
    expect(await platform(ada.env, ['tokens', 'create', '--name', 'ci', '--scope', 'read'])).toEqual({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('--expires-in-days is required') },
    });
    expect(await platform(ada.env, ['tokens', 'create', '--name', 'ci', '--expires-in-days', '7'])).toEqual({
      code: 2,
      json: { error: 'usage_error', message: '--scope is required' },
    });
    expect(
      await platform(ada.env, [
        'tokens',
        'create',
        '--name',
        'ci',
        '--scope',
        'read',
        '--expires-in-days',
        '366',
      ]),
    ).toMatchObject({ code: 1, json: { error: 'validation_error', field: 'expiresInDays' } });
  });

  it("makes tokens of the user's personal team when no team is chosen", async () => {
    const bob = await user('Bob');
    await platform(bob.env, ['projects', 'create', '--name', 'site']);
    const { apiKey } = (
      await platform(bob.env, [
        'tokens',
        'create',
        '--name',
        'ci',
        '--scope',
        'read',
        '--expires-in-days',
        '7',
      ])
    ).json as Created;
    expect(await projectNames({ PLATFORM_API_KEY: apiKey })).toEqual(['site']);
    expect(
      ((await platform(bob.env, ['tokens', 'list'])).json as { name: string }[]).map((t) => t.name),
    ).toEqual(['ci']);
  });
});

describe('a team token as the key (PLATFORM_API_KEY)', () => {
  it('acts in its team with no teamId, whatever team the login switched to', async () => {
    const { ada, team } = await adaWithTeam();
    const { apiKey } = (
      await platform(ada.env, [
        'tokens',
        'create',
        '--name',
        'ci',
        '--scope',
        'read,write',
        '--expires-in-days',
        '30',
        '--team',
        team,
      ])
    ).json as Created;
    // Ada's login acts in her personal team, where she has a project of her own.
    await platform(ada.env, ['projects', 'create', '--name', 'mine']);
    const asToken = { ...ada.env, PLATFORM_API_KEY: apiKey };
    expect(await projectNames(asToken)).toEqual(['web']);
    expect(await platform(asToken, ['projects', 'create', '--name', 'api'])).toMatchObject({ code: 0 });
    expect((await projectNames(ada.env, ['--team', team])).sort()).toEqual(['api', 'web']);

    // The team the login switched to is the login's, not the token's.
    const beta = ((await platform(ada.env, ['teams', 'create', 'Beta'])).json as { id: string }).id;
    await platform(ada.env, ['switch', beta]);
    expect((await projectNames(asToken)).sort()).toEqual(['api', 'web']);
    expect(await platform(asToken, ['switch'])).toEqual({ code: 0, json: { team: null, from: 'token' } });
    // Its own team by id is fine.
    expect((await projectNames(asToken, ['--team', team])).sort()).toEqual(['api', 'web']);

    // whoami says it is a team token, not the login's user, and which team a flag chose.
    expect((await platformText(asToken, ['whoami'])).out.trimEnd()).toBe(
      'A team token (from PLATFORM_API_KEY): a team token acts in its own team only.',
    );
    expect(await platform(asToken, ['whoami', '--team', team])).toEqual({
      code: 0,
      json: {
        type: 'team-token',
        keyFrom: 'PLATFORM_API_KEY',
        team: { id: team, chosenBy: expect.any(String) },
      },
    });
  });

  it('fails clearly when told to act in another team, by --team, PLATFORM_TEAM or `switch`; logout leaves it be', async () => {
    const { ada, team } = await adaWithTeam();
    const { apiKey } = (
      await platform(ada.env, [
        'tokens',
        'create',
        '--name',
        'ci',
        '--scope',
        'read',
        '--expires-in-days',
        '1',
        '--team',
        team,
      ])
    ).json as Created;
    const beta = ((await platform(ada.env, ['teams', 'create', 'Beta'])).json as { id: string }).id;
    const asToken = { ...ada.env, PLATFORM_API_KEY: apiKey };

    const notItsTeam = {
      code: 1,
      json: {
        error: 'not_found',
        message: expect.stringContaining(`Team ${beta} (from --team) is not this team token's`),
      },
    };
    expect(await platform(asToken, ['projects', 'list', '--team', beta])).toEqual(notItsTeam);
    expect(await platform({ ...asToken, PLATFORM_TEAM: beta }, ['projects', 'list'])).toEqual({
      code: 1,
      json: { error: 'not_found', message: expect.stringContaining('(from PLATFORM_TEAM)') },
    });
    const personal = `team_${ada.userId.slice('usr_'.length)}`;
    expect(await platform(asToken, ['projects', 'list', '--team', personal])).toMatchObject({
      code: 1,
      json: { error: 'not_found' },
    });
    expect(await platform(asToken, ['projects', 'list', '--team', 'Acme'])).toEqual({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('cannot look teams up by name') },
    });
    expect(await platform(asToken, ['switch', beta])).toEqual({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('the key in effect is a team token') },
    });
    // `logout` is a login's: it does not revoke the team's token.
    expect(await platform(asToken, ['logout'])).toEqual({
      code: 2,
      json: { error: 'usage_error', message: expect.stringContaining('team token, not a login') },
    });
    expect(await platform(asToken, ['projects', 'list', '--team', team])).toMatchObject({ code: 0 });
    // A token never manages tokens: the API refuses it even in its own team.
    expect(await platform(asToken, ['tokens', 'list', '--team', team])).toMatchObject({
      code: 1,
      json: { error: 'forbidden' },
    });
  });
});
