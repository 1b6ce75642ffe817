import { matchRequest } from '#infra/local/router.ts';

describe('local routing follows the route table as API Gateway would', () => {
  it('sends /v1 paths to the platform API with the stage stripped from path', () => {
    expect(matchRequest('GET', '/v1/projects/prj_1')).toMatchObject({
      api: 'platform',
      stage: 'v1',
      resource: '/projects/{id}',
      path: '/projects/prj_1',
      pathParameters: { id: 'prj_1' },
      route: { handler: 'get-project' },
    });
  });

  it('sends other paths to the backend API', () => {
    expect(matchRequest('GET', '/api/v1/users')).toMatchObject({
      api: 'backend',
      route: { handler: 'list-users' },
    });
    expect(matchRequest('POST', '/auth/login')).toMatchObject({
      api: 'backend',
      route: { handler: 'login' },
    });
  });

  it('gives a known path with another method to the fallback, with the matched resource', () => {
    expect(matchRequest('PUT', '/v1/projects/prj_1')).toMatchObject({
      resource: '/projects/{id}',
      route: { handler: 'platform-fallback' },
    });
  });

  it('gives an unknown path to the fallback as {proxy+}', () => {
    expect(matchRequest('GET', '/v1/nothing/here')).toMatchObject({
      resource: '/{proxy+}',
      pathParameters: { proxy: 'nothing/here' },
      route: { handler: 'platform-fallback' },
    });
    expect(matchRequest('GET', '/')).toMatchObject({
      api: 'backend',
      resource: '/',
      route: { handler: 'backend-fallback' },
    });
  });

  it('hands path parameters over as the client encoded them, as a REST API does', () => {
    expect(matchRequest('GET', '/v1/projects/a%20b').pathParameters).toEqual({ id: 'a%20b' });
  });
});
