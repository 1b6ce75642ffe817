// Every error code the API answers with, its HTTP status and, where the text never varies, its
// message: once. The error middleware, the fallback functions, API Gateway's gateway responses
// (infra/api/gateway-responses.ts), the local gateway and the OpenAPI document all read it. What each
// code means in words is in shared/openapi/error-descriptions.ts, so that text stays out of the
// function bundles.

interface CatalogueEntry {
  status: number;
  /** The message when it is the same on every answer with this code. */
  message?: string;
}

/** The contract's limit on a request body; the 413 message states it. */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

export const errorCatalogue = {
  validation_error: { status: 400 },
  // Only API Gateway answers this, for a refusal of its own the contract has no code for (its
  // DEFAULT_4XX response, with the status API Gateway chose); no function does.
  bad_request: { status: 400 },
  unauthorized: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  conflict: { status: 409 },
  // One message for the function's 64 KiB check and the gateways' own larger ceiling: a body over
  // either is over 64 KiB.
  payload_too_large: {
    status: 413,
    message: `Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`,
  },
  unsupported_media_type: {
    status: 415,
    message: 'Request body must be sent with Content-Type: application/json',
  },
  idempotency_key_reused: { status: 422 },
  // The spec's 429 body is `{error, retryAfter}`: no message.
  rate_limit_exceeded: { status: 429 },
  internal_error: { status: 500, message: 'An unexpected error occurred' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The codes whose body is `{error, message, field?}` (all but the 429). */
export type MessageErrorCode = Exclude<ErrorCode, 'rate_limit_exceeded'>;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** `not_found`'s message for a path no endpoint serves (fallback functions and gateway responses). */
export const NO_SUCH_ENDPOINT = 'No such endpoint';

/** The fixed message of a code, when it has one. */
export const fixedMessageOf = (code: ErrorCode): string | undefined => {
  const entry: CatalogueEntry = errorCatalogue[code];
  return entry.message;
};
