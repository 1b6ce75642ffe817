import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newPerson } from '../../../test/support/teams.ts';
import { inProcessCli } from './support/in-process.ts';

// What an invitee sees: `platform invitations mine`, and `invitations list` in the personal team,
// run in-process against the local gateway.

let gateway: TestGateway;
let home: string;
beforeAll(async () => {
  gateway = await startGateway();
  home = await mkdtemp(join(tmpdir(), 'platform-cli-invitations-'));
});
afterAll(async () => {
  await gateway.close();
  await rm(home, { recursive: true, force: true });
});

async function user(name: string) {
  const person = await newPerson(name);
  return { ...person, env: { PLATFORM_API_KEY: person.key, XDG_CONFIG_HOME: join(home, randomUUID()) } };
}

const { platform, platformText } = inProcessCli(() => gateway);

describe('platform invitations, as the invitee', () => {
  it('lists the invitations to my email by team and inviter, with how to accept, and never a code', async () => {
    const [ada, grace] = await Promise.all([user('Ada'), user('Grace')]);
    const acme = ((await platform(ada.env, ['teams', 'create', 'Acme'])).json as { id: string }).id;
    expect((await platformText(grace.env, ['invitations', 'mine'])).out).toBe(
      'No open invitations to your email.\n',
    );
    const invited = await platform(ada.env, [
      'teams',
      'invite',
      grace.email,
      '--role',
      'viewer',
      '--team',
      acme,
    ]);
    const { id, code } = invited.json as { id: string; code: string };

    const mine = await platformText(grace.env, ['invitations', 'mine']);
    expect(mine.code).toBe(0);
    expect(mine.out.split('\n')).toEqual([
      expect.stringMatching(/^ID +TEAM +ROLE +INVITED BY +ACCEPTABLE +EXPIRES AT$/),
      expect.stringMatching(new RegExp(`^${id} +Acme \\(${acme}\\) +viewer +${ada.email} +yes +\\S+Z$`)),
      '',
      expect.stringContaining('platform invitations accept <code>'),
      '',
    ]);
    expect(mine.out).not.toContain(code);
    // In the personal team, which takes no invitations, `list` shows the same.
    expect((await platform(grace.env, ['invitations', 'list'])).json).toEqual([
      expect.objectContaining({ id, team: { id: acme, name: 'Acme' }, acceptable: true }),
    ]);
    // A team chosen, `list` is that team's, as before.
    expect((await platform(ada.env, ['invitations', 'list', '--team', acme])).json).toEqual([
      expect.objectContaining({ id, email: grace.email }),
    ]);

    expect((await platform(grace.env, ['invitations', 'accept', code])).code).toBe(0);
    expect((await platform(grace.env, ['invitations', 'mine'])).json).toEqual([]);
  });
});
