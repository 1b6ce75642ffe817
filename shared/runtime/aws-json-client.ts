import { partition } from '@aws-sdk/core/client';
import { AwsSdkSigV4Signer } from '@aws-sdk/core/httpAuthSchemes';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { resolveEndpointConfig } from '@smithy/core/endpoints';
import { HttpRequest, parseUrl } from '@smithy/core/protocols';
import {
  isClockSkewCorrectedError,
  isServerError,
  isThrottlingError,
  isTransientError,
  StandardRetryStrategy,
} from '@smithy/core/retry';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpResponse, RetryErrorType } from '@smithy/types';
import { DeadlineBoundHandler } from './deadline-bound-handler.ts';
import { variable } from './variables.ts';

// A client for an AWS service's JSON protocol (the `X-Amz-Target` header names the action), made
// of the SDK's own parts, those the DynamoDB client already brings into every bundle: its Signature
// Version 4 signer with its clock-skew correction (a call refused for a skewed clock is signed again
// with KMS's time, as the SDK's clients do); its HTTP handler, bound to the request's deadline like
// the store's; its standard retry strategy and error classification; its endpoint configuration, so
// that `AWS_ENDPOINT_URL_<SERVICE>`, `AWS_ENDPOINT_URL` or the shared config file's `services`
// section point the calls elsewhere as they do every SDK client's; and the same credential chain (in
// the Lambda bundles, infra/lambda/credentials.ts). A generated client (@aws-sdk/client-kms) brings
// the error classes and schemas of the service's whole API: 31 KB more in each function that uses
// it, for calls whose input and output are a few JSON fields (docs/decisions.md).

export interface AwsJsonService {
  /** The signing name and the endpoint's first label: `kms`. */
  signingName: string;
  /** The SDK's service id, which names its endpoint variable (`KMS`: `AWS_ENDPOINT_URL_KMS`). */
  serviceId: string;
  /** The prefix of `X-Amz-Target`: `TrentService`. */
  target: string;
  /** The JSON protocol's version: `1.1` for KMS. */
  jsonVersion: '1.0' | '1.1';
  /** Attempts per call, the first included. */
  maxAttempts: number;
  /** Each attempt's limits (the request's deadline ends it sooner). */
  attemptLimits: { connectionTimeout: number; requestTimeout: number };
}

/** What the service answered other than 2xx, shaped as the SDK's service errors for its classifiers. */
export class AwsServiceError extends Error {
  readonly $metadata: { httpStatusCode: number; clockSkewCorrected?: boolean };
  readonly $response: HttpResponse;
  constructor(type: string, message: string, response: HttpResponse) {
    super(message);
    this.name = type;
    this.$metadata = { httpStatusCode: response.statusCode };
    this.$response = response;
  }
}

/** The SDK retry middleware's reading of an error: whether, and how, to try again. */
function retryErrorType(error: unknown): RetryErrorType | undefined {
  const classified = error as Parameters<typeof isThrottlingError>[0];
  if (isThrottlingError(classified)) return 'THROTTLING';
  if (isTransientError(classified) || isClockSkewCorrectedError(classified)) return 'TRANSIENT';
  if (isServerError(classified)) return 'SERVER_ERROR';
  return undefined;
}

async function textOf(response: HttpResponse): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The error a non-2xx answer stands for: its type from the body's `__type` or the header. */
function serviceError(action: string, response: HttpResponse, text: string): AwsServiceError {
  let answer: { __type?: unknown; message?: unknown; Message?: unknown } = {};
  try {
    answer = JSON.parse(text) ?? {};
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const type = String(answer.__type ?? response.headers['x-amzn-errortype'] ?? 'UnknownError')
    .replace(/^.*#/, '')
    .replace(/:.*$/, '');
  const message = String(answer.message ?? answer.Message ?? '');
  return new AwsServiceError(
    type,
    `${action} answered ${response.statusCode} (${type}) ${message}`.trim(),
    response,
  );
}

export class AwsJsonClient {
  private readonly service: AwsJsonService;
  private readonly region: string;
  private readonly credentials = defaultProvider();
  private readonly retries: StandardRetryStrategy;
  private readonly handler: DeadlineBoundHandler;
  private readonly sigV4 = new AwsSdkSigV4Signer();
  /** What the SDK's signer reads and corrects: the clock's offset from the service's. */
  private readonly signingConfig: { systemClockOffset: number; signer: () => Promise<SignatureV4> };
  private endpoint: Promise<URL> | undefined;

  constructor(service: AwsJsonService) {
    this.service = service;
    this.region = variable('AWS_REGION') ?? variable('AWS_DEFAULT_REGION') ?? 'us-east-1';
    const signer = new SignatureV4({
      credentials: this.credentials,
      region: this.region,
      service: service.signingName,
      sha256: Sha256,
    });
    this.signingConfig = { systemClockOffset: 0, signer: async () => signer };
    this.retries = new StandardRetryStrategy(service.maxAttempts);
    this.handler = new DeadlineBoundHandler({ ...service.attemptLimits, throwOnRequestTimeout: true });
  }

  /** The configured endpoint (`AWS_ENDPOINT_URL_<SERVICE>`...), else the region's, found once. */
  private endpointUrl(): Promise<URL> {
    const regional = new URL(
      `https://${this.service.signingName}.${this.region}.${partition(this.region).dnsSuffix}/`,
    );
    const config = resolveEndpointConfig({
      serviceId: this.service.serviceId,
      urlParser: parseUrl,
      endpointProvider: () => ({ url: regional }),
    });
    this.endpoint ??= (config.serviceConfiguredEndpoint?.() ?? Promise.resolve(undefined)).then(
      (configured) => (configured ? new URL(configured) : regional),
    );
    return this.endpoint;
  }

  /**
   * One action: `input` as JSON, its answer parsed; retried as the SDK retries, else thrown. `endpoint`
   * takes the place of the configured one (SQS: the queue URL's host, as the SDK's client sends there).
   */
  async call<T>(action: string, input: Record<string, unknown>, endpoint?: URL): Promise<T> {
    const url = endpoint ?? (await this.endpointUrl());
    const body = JSON.stringify(input);
    let token = await this.retries.acquireInitialRetryToken(`${this.service.signingName}:${action}`);
    for (;;) {
      const request = new HttpRequest({
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname,
        ...(url.port ? { port: Number(url.port) } : {}),
        path: url.pathname,
        headers: {
          host: url.host,
          'content-type': `application/x-amz-json-${this.service.jsonVersion}`,
          'content-length': String(Buffer.byteLength(body)),
          'x-amz-target': `${this.service.target}.${action}`,
        },
        body,
      });
      // The signer keeps in these what it needs to correct the clock from the answer.
      const signing: Record<string, unknown> = {
        config: this.signingConfig,
        context: {},
        signingRegion: this.region,
        signingName: this.service.signingName,
      };
      try {
        const signed = await this.sigV4.sign(request, await this.credentials(), signing);
        const { response } = await this.handler.handle(signed as HttpRequest);
        const text = await textOf(response);
        if (response.statusCode < 200 || response.statusCode >= 300) {
          throw serviceError(`${this.service.serviceId} ${action}`, response, text);
        }
        this.sigV4.successHandler(response, signing);
        this.retries.recordSuccess(token);
        return JSON.parse(text) as T;
      } catch (error) {
        if (error instanceof AwsServiceError) {
          try {
            this.sigV4.errorHandler(signing)(error);
          } catch {
            // It rethrows the error it was given, once it has read the service's clock from it.
          }
        }
        const errorType = retryErrorType(error);
        if (!errorType) throw error;
        token = await this.retries.refreshRetryTokenForRetry(token, { errorType }).catch(() => {
          throw error;
        });
      }
    }
  }
}
