import { changesOf, kindOf, targetIdOf } from '#shared/db/audit/kinds.ts';

// Which stored item an audit event is about, from its keys alone, and what the event shows of a
// change: the fields listed for its kind, never anything else (a signing secret, a sealed value).

describe('audit kinds', () => {
  it.each([
    [{ ownerId: 'usr_1', id: 'prj_1' }, 'project'],
    [{ ownerId: 'usr_1', id: 'dpl_1' }, 'deployment'],
    [{ ownerId: 'usr_1', id: 'whk_1' }, 'webhook'],
    [{ ownerId: 'usr_1', id: 'count' }, undefined],
    [{ projectId: 'prj_1', sk: 'set' }, 'environment'],
    [{ projectId: 'prj_1', sk: 'var#0001#env_1' }, undefined],
    [{ projectId: 'prj_1', sk: 'production#mov_1' }, undefined],
    [{ deploymentId: 'dpl_1', sk: 'head' }, 'deploymentLog'],
    [{ deploymentId: 'dpl_1', sk: 'line#000000001' }, undefined],
    [{ pk: 'www.example.com' }, 'domain'],
    [{ pk: 'project#prj_1' }, undefined],
    [{ pk: 'team_1', sk: 'team' }, 'team'],
    [{ pk: 'team_1', sk: 'member#usr_1' }, 'member'],
    [{ pk: 'team_1', sk: 'invitation#inv_1' }, 'invitation'],
    [{ pk: 'code#abc', sk: 'code' }, undefined],
    // The invitee's copy of an invitation: recorded once, from the team's item.
    [{ pk: 'inbox#grace@example.com', sk: 'inv_1' }, undefined],
    [{ keyHash: 'abc' }, 'apiKey'],
  ])('tells %j is %s', (item, kind) => {
    expect(kindOf(item)).toBe(kind);
  });

  it('names targets by their own ids', () => {
    expect(targetIdOf('member', { pk: 'team_1', sk: 'member#usr_2' })).toBe('usr_2');
    expect(targetIdOf('domain', { pk: 'www.example.com' })).toBe('www.example.com');
    expect(targetIdOf('apiKey', { keyHash: 'h', keyId: 'key_1' })).toBe('key_1');
  });

  it('shows the listed fields that changed, from and to, and nothing else', () => {
    const before = { id: 'whk_1', url: 'https://a.example', secret: 'whsec_old', enabled: true };
    const after = { id: 'whk_1', url: 'https://b.example', secret: 'whsec_new', enabled: true };
    expect(changesOf('webhook', before, after)).toEqual({
      url: { from: 'https://a.example', to: 'https://b.example' },
    });
    expect(changesOf('webhook', { ...before, url: after.url }, after)).toBeUndefined();
  });

  it('shows a production move as the deployments it moved between', () => {
    const pointer = (deploymentId: string) => ({
      deploymentId,
      url: null,
      promotedAt: 'x',
      reason: 'promote',
    });
    expect(changesOf('project', { production: pointer('dpl_1') }, { production: pointer('dpl_2') })).toEqual({
      production: { from: 'dpl_1', to: 'dpl_2' },
    });
  });

  it('shows a variables change as the keys, targets and types it touched, never a value', () => {
    const head = {
      sk: 'set',
      lastChange: {
        change: 'updated',
        variables: [{ key: 'API', targets: ['preview'], type: 'secret' }],
        at: 'x',
      },
    };
    expect(changesOf('environment', undefined, head)).toEqual({
      variables: { from: null, to: [{ key: 'API', targets: ['preview'], type: 'secret' }] },
    });
  });
});
