// In place of @aws-sdk/endpoint-cache in the Lambda bundles (infra/api/endpoint-function.ts).
//
// The DynamoDB client builds an endpoint-discovery cache as it is configured (an LRU cache from
// mnemonist, 8 KB with its helpers), although none of its commands discovers endpoints: the
// middleware that would read the cache is not in any DynamoDB command of this SDK. This cache
// takes its place and holds nothing; a command that did use it would fail at once, naming the cause.

const UNSUPPORTED =
  'Endpoint discovery is not bundled into the Lambda functions (infra/lambda/without-endpoint-cache.ts): ' +
  'remove the @aws-sdk/endpoint-cache alias in infra/api/endpoint-function.ts for a client that needs it';

/** The client constructs it with a size, which an empty cache does not need. */
export class EndpointCache {
  get(): never {
    throw new Error(UNSUPPORTED);
  }

  getEndpoint(): never {
    throw new Error(UNSUPPORTED);
  }

  set(): never {
    throw new Error(UNSUPPORTED);
  }

  delete(): never {
    throw new Error(UNSUPPORTED);
  }

  has(): boolean {
    return false;
  }

  clear(): void {}
}
