// In place of @smithy/core/event-streams in the Lambda bundles (infra/api/endpoint-function.ts).
//
// The SDK's HTTP protocol imports event-stream support on demand, for operations whose input or
// output is a stream of events (Kinesis SubscribeToShard, Bedrock's streaming replies). esbuild
// cannot split a CommonJS bundle, so that dynamic import would put 15 KB of codecs into every
// function, loaded at every cold start. DynamoDB and SQS have no such operation. Should a client with
// one ever be bundled, its first event-stream call fails here, naming the cause.

const UNSUPPORTED =
  'Event streams are not bundled into the Lambda functions (infra/lambda/without-event-streams.ts): ' +
  'remove the @smithy/core/event-streams alias in infra/api/endpoint-function.ts for a client that needs them';

export class EventStreamSerde {
  constructor() {
    throw new Error(UNSUPPORTED);
  }
}

export function eventStreamSerdeProvider(): never {
  throw new Error(UNSUPPORTED);
}
