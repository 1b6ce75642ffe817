import type { ZodOpenApiResponseObject } from 'zod-openapi';
import type { ErrorCode } from '#shared/model/error-catalogue.ts';
import { type ApiGroup, fallbackOf } from '#shared/routes.ts';
import { byStatus, errorResponseOf } from './error-responses.ts';
import { responseHeaders } from './headers.ts';
import { rateLimitHeadersOf } from './operations.ts';

// What a group answers to a request that no operation serves (its fallback function: 404 for an
// unknown path, 405 with Allow for a known path with another method; on the versioned API only after
// the key check, like every request there).

/** The fallback's possible answers, by status. */
export function unmatchedResponsesOf(group: ApiGroup): Map<number, ZodOpenApiResponseObject> {
  const { access } = fallbackOf(group);
  const codes: ErrorCode[] = [
    ...(access === 'apiKey' ? (['unauthorized', 'rate_limit_exceeded'] as const) : []),
    'not_found',
    'method_not_allowed',
    'internal_error',
  ];
  const responses = new Map<number, ZodOpenApiResponseObject>();
  for (const [status, statusCodes] of byStatus(codes)) {
    const headers = responseHeaders({
      rateLimit: rateLimitHeadersOf(access, status),
      status,
      allow: status === 405,
    });
    responses.set(status, errorResponseOf(statusCodes, headers));
  }
  return responses;
}
