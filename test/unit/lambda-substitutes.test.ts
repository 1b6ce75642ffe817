import { EndpointCache } from '../../infra/lambda/without-endpoint-cache.ts';
import { EventStreamSerde, eventStreamSerdeProvider } from '../../infra/lambda/without-event-streams.ts';

// What the Lambda bundles carry in place of SDK code no function runs (LAMBDA_SUBSTITUTES in
// infra/endpoint-function.ts): should a client ever reach it, it fails at once and names the alias.

describe('the Lambda substitutes for SDK code', () => {
  it('fail an event-stream operation, naming the alias to remove', () => {
    expect(() => new EventStreamSerde()).toThrow(/@smithy\/core\/event-streams alias/);
    expect(() => eventStreamSerdeProvider()).toThrow(/without-event-streams\.ts/);
  });

  it('give the DynamoDB client an empty endpoint cache that fails if a command ever reads it', () => {
    const cache = new EndpointCache();
    expect(cache.has()).toBe(false);
    expect(() => cache.get()).toThrow(/@aws-sdk\/endpoint-cache alias/);
    expect(() => cache.set()).toThrow(/without-endpoint-cache\.ts/);
  });
});
