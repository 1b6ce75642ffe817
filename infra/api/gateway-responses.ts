import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { errorCatalogue, type MessageErrorCode, NO_SUCH_ENDPOINT } from '#shared/model/error-catalogue.ts';

// What API Gateway answers by itself (before or instead of a function) reshaped to the contract's JSON
// errors. Header values are mapping expressions, hence the single quotes around literals. API Gateway
// allows only request parameters and literals there, and does not run templates through VTL, so
// these answers cannot carry X-Request-Id or the X-RateLimit-* headers, and each documented response
// type gets its own contract code rather than one derived from the status. Codes, statuses and fixed
// messages come from the error catalogue that the functions answer with too.

const jsonContentType = "'application/json; charset=utf-8'";

interface ContractResponse {
  type: ResponseType;
  /** Omitted: keep the status API Gateway chose (DEFAULT_4XX and DEFAULT_5XX cover several). */
  statusCode?: string;
  /** A JSON body; `$context` variables are substituted, nothing else is evaluated. */
  body: string;
  headers?: Record<string, string>;
}

/** A contract error body with the code's status from the catalogue; the message is literal JSON text. */
function errorOf(code: MessageErrorCode, message: string): Pick<ContractResponse, 'statusCode' | 'body'> {
  return {
    statusCode: String(errorCatalogue[code].status),
    body: JSON.stringify({ error: code, message }),
  };
}

const contractResponses: Record<string, ContractResponse> = {
  // A backstop: with the fallback on every resource and `/{proxy+}` few requests match no resource, but
  // API Gateway answers any that do with 403 "Missing Authentication Token".
  NotFound: { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, ...errorOf('not_found', NO_SUCH_ENDPOINT) },
  Throttled: {
    type: ResponseType.THROTTLED,
    statusCode: String(errorCatalogue.rate_limit_exceeded.status),
    body: JSON.stringify({ error: 'rate_limit_exceeded', retryAfter: 1 }),
    headers: { 'Retry-After': "'1'" },
  },
  ResourceNotFound: { type: ResponseType.RESOURCE_NOT_FOUND, ...errorOf('not_found', NO_SUCH_ENDPOINT) },
  AccessDenied: { type: ResponseType.ACCESS_DENIED, ...errorOf('forbidden', 'Access denied') },
  WafFiltered: { type: ResponseType.WAF_FILTERED, ...errorOf('forbidden', 'Request blocked') },
  UnsupportedMediaType: {
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    ...errorOf('unsupported_media_type', errorCatalogue.unsupported_media_type.message),
  },
  PayloadTooLarge: {
    type: ResponseType.REQUEST_TOO_LARGE,
    ...errorOf('payload_too_large', errorCatalogue.payload_too_large.message),
  },
  // Any other refusal of API Gateway's own (none is expected with this stack's configuration): the
  // contract has no code for it, so it says what it is, with API Gateway's own 4xx status and words.
  // `messageString` is already a quoted, escaped JSON string.
  Default4xx: {
    type: ResponseType.DEFAULT_4XX,
    body: `{"error":"bad_request","message":$context.error.messageString}`,
  },
  // API Gateway's 5xx (an integration failure or timeout) keeps its status (502, 504) with the 500's words.
  Default5xx: {
    type: ResponseType.DEFAULT_5XX,
    body: JSON.stringify({ error: 'internal_error', message: errorCatalogue.internal_error.message }),
  },
};

/** Makes API Gateway's own error responses on `api` speak the contract's JSON error format. */
export function addContractGatewayResponses(api: RestApi): void {
  for (const [id, response] of Object.entries(contractResponses)) {
    api.addGatewayResponse(id, {
      type: response.type,
      statusCode: response.statusCode,
      responseHeaders: { 'Content-Type': jsonContentType, ...response.headers },
      templates: { 'application/json': response.body },
    });
  }
}
