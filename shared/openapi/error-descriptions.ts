import type { ErrorCode } from '#shared/model/error-catalogue.ts';

// What each error code means, in the document's words, with an example message where the catalogue
// fixes none. Kept apart from the catalogue so that this text is in the document, not in every bundle.

interface ErrorDescription {
  description: string;
  exampleMessage?: string;
  exampleField?: string;
}

export const errorDescriptions: Record<ErrorCode, ErrorDescription> = {
  validation_error: {
    description:
      'A path parameter, query parameter or the body is not valid. `field` is the dotted path of the first bad input (`projectId`, `branch`, `limit`, `cursor`, `body`...); `message` says what is wrong with it. A body that nests objects and arrays more than 32 levels deep is refused whole (`field: body`).',
    exampleMessage: 'branch must be a valid git branch name of at most 255 characters',
    exampleField: 'branch',
  },
  bad_request: {
    description:
      "API Gateway refused the request itself, for a reason the contract has no code for. Only the deployed stack answers this, with API Gateway's own 4xx status and words; none is expected with this API's configuration.",
    exampleMessage: 'Invalid request body',
  },
  unauthorized: {
    description:
      'No valid API key: missing, malformed, unknown, expired or revoked keys all get this same answer. From login: the email and password do not match (an unknown email answers the same).',
    exampleMessage: 'A valid API key is required: send Authorization: Bearer <API_KEY>',
  },
  forbidden: {
    description: 'The key is valid but may not do this (listing users needs an admin).',
    exampleMessage: 'Only admins may list users',
  },
  not_found: {
    description:
      "No such resource among the caller's own: another user's resource answers exactly as an unknown one. Also the answer to a path no endpoint serves.",
    exampleMessage: 'Project prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A was not found',
  },
  method_not_allowed: {
    description: 'The path exists but not with this method; `Allow` lists the methods it has.',
    exampleMessage: 'This path supports GET, POST',
  },
  conflict: {
    description:
      'The request conflicts with what exists: an email address already registered, a deployment whose current status does not allow the change (the message names that status), a new project, webhook or token in a team that is being deleted, or a request with the same Idempotency-Key still running (that 409 carries `Retry-After: 1`: try again then, and get its answer).',
    exampleMessage: 'A user with this email already exists',
  },
  payload_too_large: { description: 'The request body is over 64 KiB.' },
  unsupported_media_type: { description: 'A request body must be sent as `application/json`.' },
  idempotency_key_reused: {
    description: 'The `Idempotency-Key` was already used with a different request.',
    exampleMessage: 'This Idempotency-Key was used with a different request',
  },
  rate_limit_exceeded: {
    description:
      'Too many requests in this window. The body has no message: `retryAfter` (and the `Retry-After` header) say how many seconds to wait. Refused requests are not counted.',
  },
  internal_error: {
    description:
      "Something failed on our side. The cause is logged under the response's `X-Request-Id`; the message is always the same.",
  },
};
