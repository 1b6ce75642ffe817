import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { EndpointCache } from '#infra/lambda/without-endpoint-cache.ts';
import * as withoutEventStreams from '#infra/lambda/without-event-streams.ts';

const { EventStreamSerde, eventStreamSerdeProvider } = withoutEventStreams;

// What the Lambda bundles carry in place of SDK code no function runs (LAMBDA_SUBSTITUTES in
// infra/api/endpoint-function.ts): should a client ever reach it, it fails at once and names the alias.

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

  it('export every name the SDK takes from the event-stream module it loads on demand', () => {
    // A static import of a missing name fails the build; this one is a dynamic import, which would
    // fail with a bare TypeError at the first event-stream call instead of the substitute's message.
    const smithyCore = dirname(dirname(createRequire(import.meta.url).resolve('@smithy/core')));
    const protocol = readFileSync(join(smithyCore, 'dist-es/submodules/protocols/HttpProtocol.js'), 'utf8');
    const taken = [
      ...protocol.matchAll(/const \{([^}]+)\} = await import\("@smithy\/core\/event-streams"\)/g),
    ]
      .flatMap((match) => (match[1] ?? '').split(','))
      .map((name) => name.trim())
      .filter(Boolean);
    expect(taken.length).toBeGreaterThan(0);
    expect(Object.keys(withoutEventStreams)).toEqual(expect.arrayContaining(taken));
  });
});
