import { startGateway, type TestGateway } from '../../../test/support/gateway.ts';
import { newPerson } from '../../../test/support/teams.ts';
import { ForbiddenError, NotFoundError, PlatformClient, UnauthorizedError } from '../src/index.ts';

// The SDK with a team token as its key: `new PlatformClient({ apiKey: 'platt_…' })` acts in the
// token's team without a teamId, the API's refusals come as the usual error classes, and no error
// carries the secret.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

/** A client with `apiKey`; every URL it requests is recorded. */
function clientWith(apiKey: string) {
  const urls: string[] = [];
  const client = new PlatformClient({
    baseUrl: gateway.baseUrl,
    backendUrl: gateway.backendUrl,
    apiKey,
    fetch: (url, init) => {
      urls.push(`${init.method} ${url.slice(gateway.baseUrl.length)}`);
      return fetch(url, init);
    },
  });
  return { client, urls };
}

/** Whatever `promise` rejects with. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('PlatformClient({ apiKey: a team token })', () => {
  it('acts in its team without a teamId, within its projects and targets', async () => {
    const ada = await newPerson('Ada');
    const { client: owner } = clientWith(ada.key);
    const team = await owner.teams.create({ name: 'Acme' });
    const web = await owner.projects.create({ name: 'web' }, { teamId: team.id });
    const other = await owner.projects.create({ name: 'other' }, { teamId: team.id });
    const { apiKey, token } = await owner.teamTokens.create(team.id, {
      name: 'ci',
      scopes: ['read', 'write'],
      projectIds: [web.id],
      targets: ['preview'],
      expiresInDays: 7,
    });
    expect(apiKey).toMatch(/^platt_/);

    const { client, urls } = clientWith(apiKey);
    expect((await client.projects.list().page()).projects).toEqual([web]);
    const deployment = await client.deployments.create({ projectId: web.id, branch: 'feature' });
    expect(deployment).toEqual(expect.objectContaining({ projectId: web.id, target: 'preview' }));
    expect(urls).toEqual(['GET /projects', 'POST /deployments']);

    expect(await refusal(client.projects.get(other.id))).toBeInstanceOf(NotFoundError);
    expect(await refusal(client.deployments.create({ projectId: web.id }))).toBeInstanceOf(ForbiddenError);
    expect(
      await refusal(client.projects.list({}, { teamId: `team_${ada.userId.slice('usr_'.length)}` }).page()),
    ).toBeInstanceOf(NotFoundError);
    expect(await refusal(client.teamTokens.list(team.id).page())).toBeInstanceOf(ForbiddenError);

    const listed = (await owner.teamTokens.list(team.id).page()).tokens;
    expect(listed).toEqual([expect.objectContaining({ id: token.id, lastUsedAt: expect.any(String) })]);
    await owner.teamTokens.revoke(team.id, token.id);
    const revoked = await refusal(client.projects.list().page());
    expect(revoked).toBeInstanceOf(UnauthorizedError);
    // Nothing an error shows, logged whole or as text, holds the secret.
    for (const error of [revoked, await refusal(client.projects.get(other.id))]) {
      const shown = [String(error), JSON.stringify(error), JSON.stringify((error as UnauthorizedError).body)];
      expect(shown.join('\n')).not.toContain(apiKey);
    }
  });
});
