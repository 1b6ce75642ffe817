import { errorShaping } from '../../../shared/http/error-response.ts';
import {
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../../../shared/http/http-errors.ts';
import {
  ConflictError,
  ForbiddenError,
  IdempotencyKeyReusedError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
} from '../../../shared/model/errors.ts';
import { captureLogs } from '../../support/logs.ts';
import { proxyEvent, runChain } from '../../support/proxy-events.ts';

// errorShaping: whatever a handler or an inner middleware throws becomes the contract's JSON error.

const JSON_TYPE = 'application/json; charset=utf-8';

async function answerTo(error: unknown) {
  const event = proxyEvent({ requestId: 'req-error-shaping' });
  const { result } = await runChain([errorShaping()], event, async () => {
    throw error;
  });
  return result;
}

describe('error shaping', () => {
  it.each([
    [
      new UnauthorizedError('A valid API key is required'),
      401,
      'unauthorized',
      'A valid API key is required',
    ],
    [
      new ForbiddenError('This request needs the write scope'),
      403,
      'forbidden',
      'This request needs the write scope',
    ],
    [new NotFoundError('Project not found'), 404, 'not_found', 'Project not found'],
    [new ConflictError('Already canceled'), 409, 'conflict', 'Already canceled'],
    [
      new IdempotencyKeyReusedError('Used with another request'),
      422,
      'idempotency_key_reused',
      'Used with another request',
    ],
    [new PayloadTooLargeError(10), 413, 'payload_too_large', 'Request body must not exceed 65536 bytes'],
    [
      new UnsupportedMediaTypeError(),
      415,
      'unsupported_media_type',
      'Request body must be sent with Content-Type: application/json',
    ],
  ])('answers %p with its status, code and message', async (error, status, code, message) => {
    expect(await answerTo(error)).toEqual({
      statusCode: status,
      headers: { 'Content-Type': JSON_TYPE },
      body: JSON.stringify({ error: code, message }),
    });
  });

  it('names the field of a validation error', async () => {
    expect(await answerTo(new ValidationError('branch', 'branch is required'))).toEqual({
      statusCode: 400,
      headers: { 'Content-Type': JSON_TYPE },
      body: JSON.stringify({ error: 'validation_error', message: 'branch is required', field: 'branch' }),
    });
  });

  it('lists the allowed methods in Allow on a 405', async () => {
    expect(await answerTo(new MethodNotAllowedError(['GET', 'POST']))).toEqual({
      statusCode: 405,
      headers: { 'Content-Type': JSON_TYPE, Allow: 'GET, POST' },
      body: JSON.stringify({ error: 'method_not_allowed', message: 'This path supports GET, POST' }),
    });
  });

  it('answers a 429 with retryAfter and Retry-After, and no message', async () => {
    expect(await answerTo(new RateLimitedError(17))).toEqual({
      statusCode: 429,
      headers: { 'Content-Type': JSON_TYPE, 'Retry-After': '17' },
      body: JSON.stringify({ error: 'rate_limit_exceeded', retryAfter: 17 }),
    });
  });

  it('hides an unexpected error behind the fixed 500 and logs its cause with the request id', async () => {
    const { result, lines } = await captureLogs(() =>
      answerTo(new TypeError('secret internals: table platform-users')),
    );
    expect(result).toEqual({
      statusCode: 500,
      headers: { 'Content-Type': JSON_TYPE },
      body: JSON.stringify({ error: 'internal_error', message: 'An unexpected error occurred' }),
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'error',
      message: 'unhandled error',
      requestId: 'req-error-shaping',
      error: { name: 'TypeError', message: 'secret internals: table platform-users' },
    });
  });

  it('answers a thrown non-Error with the 500 too', async () => {
    const { result } = await captureLogs(() => answerTo('a string'));
    expect(result.statusCode).toBe(500);
  });

  it('logs nothing for an expected error', async () => {
    const { lines } = await captureLogs(() => answerTo(new NotFoundError('Project not found')));
    expect(lines).toEqual([]);
  });
});
