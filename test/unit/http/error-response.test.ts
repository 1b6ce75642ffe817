import { errorShaping } from '#shared/http/answers/error-response.ts';
import { MethodNotAllowedError } from '#shared/http/answers/http-errors.ts';
import { NotFoundError, RateLimitedError, ValidationError } from '#shared/model/errors.ts';
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
