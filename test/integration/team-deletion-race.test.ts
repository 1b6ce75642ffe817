import { countProjects } from '#shared/db/projects.ts';
import { closeTeam } from '#shared/db/teams/teams.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { newPerson, newTeam, type TestPerson } from '../support/teams.ts';

// A team is deleted only without projects, and takes its webhooks and tokens with it. A project,
// webhook, token or member made while the deletion runs must not outlive the team in a partition no
// one can reach: the deletion closes the team first, and what is made after that is refused with a 409.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const send = (method: string, path: string, who: TestPerson, json?: unknown) =>
  call(`${gateway.baseUrl}${path}`, { method, key: who.key, ...(json === undefined ? {} : { json }) });

/** What is made in the team: a project, a webhook, a token; each answer's status. */
const makeOneOfEach = (teamId: string, owner: TestPerson) =>
  Promise.all([
    send('POST', `/projects?teamId=${teamId}`, owner, { name: 'late' }),
    send('POST', `/webhooks?teamId=${teamId}`, owner, { url: 'https://example.com/hook', events: ['*'] }),
    send('POST', `/teams/${teamId}/tokens`, owner, { name: 'ci', scopes: ['read'], expiresInDays: 1 }),
  ]);

const listed = async (path: string, owner: TestPerson, field: string): Promise<unknown[]> =>
  ((await send('GET', path, owner)).body as Record<string, unknown[]>)[field] ?? [];

describe('a team closed by a deletion that is running', () => {
  it('refuses a new project, webhook and token with 409, and keeps none of them', async () => {
    const owner = await newPerson('Owner');
    const teamId = await newTeam(gateway.baseUrl, owner);
    // The deletion's first step, taken alone, as if its function were still at work.
    await closeTeam(teamId, Date.now() + 60_000);

    const answers = await makeOneOfEach(teamId, owner);
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual(
      Array(3).fill({
        status: 409,
        body: {
          error: 'conflict',
          message: `Team ${teamId} is being deleted: nothing new can be added to it`,
        },
      }),
    );
    expect(await countProjects(teamId)).toBe(0);
    expect(await listed(`/webhooks?teamId=${teamId}`, owner, 'webhooks')).toEqual([]);
    expect(await listed(`/teams/${teamId}/tokens`, owner, 'tokens')).toEqual([]);
  });

  it('refuses an invitation accepted then (409), so no member is left in a team that is gone', async () => {
    const [owner, grace] = await Promise.all([newPerson('Owner'), newPerson('Grace')]);
    const teamId = await newTeam(gateway.baseUrl, owner);
    const invited = await send('POST', `/teams/${teamId}/invitations`, owner, {
      email: grace.email,
      role: 'developer',
    });
    const { code } = invited.body as { code: string };
    await closeTeam(teamId, Date.now() + 60_000);
    const accepted = await send('POST', '/invitations/accept', grace, { code });
    expect([accepted.status, accepted.body]).toEqual([
      409,
      { error: 'conflict', message: `Team ${teamId} is being deleted: nothing new can be added to it` },
    ]);
    const members = await listed(`/teams/${teamId}/members`, owner, 'members');
    expect((members as { userId: string }[]).map(({ userId }) => userId)).toEqual([owner.userId]);
  });

  it('takes them again once the close has run out, as when its deletion stopped half-way', async () => {
    const owner = await newPerson('Owner');
    const teamId = await newTeam(gateway.baseUrl, owner);
    await closeTeam(teamId, Date.now() - 1);
    expect((await makeOneOfEach(teamId, owner)).map(({ status }) => status)).toEqual([201, 201, 201]);
  });

  it('is open again at once when the deletion is refused for its projects', async () => {
    const owner = await newPerson('Owner');
    const teamId = await newTeam(gateway.baseUrl, owner);
    expect((await send('POST', `/projects?teamId=${teamId}`, owner, { name: 'kept' })).status).toBe(201);
    expect((await send('DELETE', `/teams/${teamId}`, owner)).status).toBe(409);
    expect((await makeOneOfEach(teamId, owner)).map(({ status }) => status)).toEqual([201, 201, 201]);
  });
});

describe('deleting a team while projects are made in it', () => {
  it('either keeps the team with every project it answered 201 for, or leaves no project behind', async () => {
    const ROUNDS = 6;
    const CREATES = 6;
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const owner = await newPerson('Owner');
      const teamId = await newTeam(gateway.baseUrl, owner);
      const creates = Array.from({ length: CREATES }, (_, index) =>
        send('POST', `/projects?teamId=${teamId}`, owner, { name: `p${index}` }),
      );
      const deletion = send('DELETE', `/teams/${teamId}`, owner);
      const made = (await Promise.all(creates)).filter(({ status }) => status === 201).length;
      const deleted = (await deletion).status;
      const stored = await countProjects(teamId);
      if (deleted === 204) {
        // Gone: nothing it answered 201 for may be left in its partition.
        expect({ round, made, stored }).toEqual({ round, made: 0, stored: 0 });
        expect((await send('GET', `/teams/${teamId}`, owner)).status).toBe(404);
      } else {
        // Kept: every project answered 201 is there, and no other.
        expect({ round, deleted, stored }).toEqual({ round, deleted: 409, stored: made });
        expect((await send('GET', `/teams/${teamId}`, owner)).status).toBe(200);
      }
      outcomes.push(`${deleted}:${made}`);
    }
    process.stdout.write(
      `team deletion against ${CREATES} creates, deletion:made per round: ${outcomes.join(' ')}\n`,
    );
  });
});
