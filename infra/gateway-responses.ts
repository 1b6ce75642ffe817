import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';

// What API Gateway answers by itself (before or instead of a function) reshaped to the contract's JSON
// errors. Header values are mapping expressions, hence the single quotes around literals. API Gateway
// allows only request parameters and literals there, and does not run templates through VTL, so
// these answers cannot carry X-Request-Id or the X-RateLimit-* headers, and each documented response
// type gets its own contract code rather than one derived from the status.

const jsonContentType = "'application/json; charset=utf-8'";

interface ContractResponse {
  type: ResponseType;
  /** Omitted: keep the status API Gateway chose (DEFAULT_4XX and DEFAULT_5XX cover several). */
  statusCode?: string;
  /** A JSON body; `$context` variables are substituted, nothing else is evaluated. */
  body: string;
  headers?: Record<string, string>;
}

const contractResponses: Record<string, ContractResponse> = {
  // A backstop: with the fallback on every resource and `/{proxy+}` few requests match no resource, but
  // API Gateway answers any that do with 403 "Missing Authentication Token".
  NotFound: {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    body: JSON.stringify({ error: 'not_found', message: 'No such endpoint' }),
  },
  Throttled: {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    body: JSON.stringify({ error: 'rate_limit_exceeded', retryAfter: 1 }),
    headers: { 'Retry-After': "'1'" },
  },
  ResourceNotFound: {
    type: ResponseType.RESOURCE_NOT_FOUND,
    statusCode: '404',
    body: JSON.stringify({ error: 'not_found', message: 'No such endpoint' }),
  },
  AccessDenied: {
    type: ResponseType.ACCESS_DENIED,
    statusCode: '403',
    body: JSON.stringify({ error: 'forbidden', message: 'Access denied' }),
  },
  WafFiltered: {
    type: ResponseType.WAF_FILTERED,
    statusCode: '403',
    body: JSON.stringify({ error: 'forbidden', message: 'Request blocked' }),
  },
  UnsupportedMediaType: {
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    statusCode: '415',
    body: JSON.stringify({
      error: 'unsupported_media_type',
      message: 'Request body must be sent with Content-Type: application/json',
    }),
  },
  PayloadTooLarge: {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    body: JSON.stringify({ error: 'payload_too_large', message: 'The request body is too large' }),
  },
  // Any other refusal of API Gateway's own: the contract has no code for it, so it says what it is.
  // `messageString` is already a quoted, escaped JSON string.
  Default4xx: {
    type: ResponseType.DEFAULT_4XX,
    body: '{"error":"bad_request","message":$context.error.messageString}',
  },
  Default5xx: {
    type: ResponseType.DEFAULT_5XX,
    body: JSON.stringify({ error: 'internal_error', message: 'An unexpected error occurred' }),
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
