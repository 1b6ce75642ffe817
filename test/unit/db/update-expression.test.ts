import { updateExpression } from '#shared/db/update-expression.ts';

describe('updateExpression', () => {
  it('sets and removes through placeholders, leaving undefined values out', () => {
    expect(
      updateExpression({ set: { name: 'web', status: 'ready', url: undefined }, remove: ['repository'] }),
    ).toEqual({
      UpdateExpression: 'SET #s0 = :s0, #s1 = :s1 REMOVE #r0',
      ExpressionAttributeNames: { '#s0': 'name', '#s1': 'status', '#r0': 'repository' },
      ExpressionAttributeValues: { ':s0': 'web', ':s1': 'ready' },
    });
  });

  it('adds clauses written by hand with their own names and values', () => {
    expect(
      updateExpression({
        set: { status: 'building' },
        extraSet: ['#events = list_append(#events, :event)'],
        names: { '#events': 'events' },
        values: { ':event': [1] },
      }),
    ).toEqual({
      UpdateExpression: 'SET #s0 = :s0, #events = list_append(#events, :event)',
      ExpressionAttributeNames: { '#events': 'events', '#s0': 'status' },
      ExpressionAttributeValues: { ':event': [1], ':s0': 'building' },
    });
  });

  it('writes a REMOVE alone without names or values it does not need', () => {
    expect(updateExpression({ remove: ['failingSince'] })).toEqual({
      UpdateExpression: 'REMOVE #r0',
      ExpressionAttributeNames: { '#r0': 'failingSince' },
    });
  });

  it('refuses an update that changes nothing', () => {
    expect(() => updateExpression({ set: { url: undefined } })).toThrow('at least one attribute');
  });
});
