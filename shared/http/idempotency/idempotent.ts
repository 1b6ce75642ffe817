import { createHash } from 'node:crypto';
import { claim, complete, release, type StoredResponse } from '#shared/db/idempotency.ts';
import { confirmMembership, type RoleReader } from '#shared/domain/teams/access.ts';
import { withHeaders } from '#shared/http/answers/responses.ts';
import { headerValue } from '#shared/http/headers.ts';
import type { EndpointContext, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import type { Caller } from '#shared/model/caller.ts';
import { IdempotencyKeyReusedError, RequestInProgressError, ValidationError } from '#shared/model/errors.ts';
import { nowSeconds } from '#shared/runtime/clock.ts';
import { FUNCTION_TIMEOUT_SECONDS } from '#shared/runtime/function-settings.ts';
import { open, recordIdOf, seal } from './sealed-response.ts';

// `Idempotency-Key` on the POSTs of the versioned API (Stripe's semantics, the IETF draft's header):
// a client whose POST timed out sends it again with the same key and gets the first answer, not a
// second project. Records are per credential (the API key or team token that sent the request):
// two users cannot see or block each other's keys, and neither can two tokens of one team, which
// act as the same caller but within different limits: a token limited to one project, sending the
// key and body another token used, runs its own request (and is refused it), instead of receiving
// the other's answer and the secret in it.

const HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;
/** How long a first answer is kept for replay. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const VISIBLE_ASCII = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Key order does not make two bodies different requests. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What makes a retry the same request: method, path, the team it acts in when it names one
 * (`?teamId=`: the same key and body in another team is another request), and body. A request that
 * names no team hashes as it always has, so that answers stored before the team was part of it
 * still replay.
 */
function fingerprintOf(event: ProxyEvent, body: unknown): string {
  const team = event.queryStringParameters?.teamId;
  const target = team === undefined ? event.path : `${event.path}?teamId=${team}`;
  return createHash('sha256')
    .update(`${event.httpMethod}\n${target}\n${canonicalJson(body ?? null)}`)
    .digest('base64url');
}

function idempotencyKeyOf(event: ProxyEvent): string | undefined {
  const key = headerValue(event, HEADER);
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !VISIBLE_ASCII.test(key)) {
    throw new ValidationError(HEADER, `${HEADER} must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`);
  }
  return key;
}

const replayed = (response: StoredResponse): ProxyResult =>
  withHeaders(response, { 'Idempotency-Replayed': 'true' });

/** Whose records a request reads and writes: its user (or team) and the credential it presented. */
export const credentialOf = (caller: Pick<Caller, 'userId' | 'keyId'>): string =>
  `${caller.userId}\n${caller.keyId}`;

/**
 * Runs a handler at most once per credential and Idempotency-Key. The first answer below 500 is
 * stored and replayed byte for byte; a failure (a validation error, a 5xx) is not, so a corrected or
 * later retry runs again. The same key with another request is a 422, and one still running is a
 * 409. A replay is answered as the request itself would be admitted now: a row that reads the
 * caller's membership with its resource has it read first (a member since removed gets the 404 of
 * a team they are not in, and one whose role no longer allows the row a 403, from teamScope).
 */
export function idempotent(
  run: (event: ProxyEvent, context: EndpointContext) => Promise<ProxyResult>,
  readRole?: RoleReader,
): (event: ProxyEvent, context: EndpointContext) => Promise<ProxyResult> {
  return async (event, context) => {
    const key = idempotencyKeyOf(event);
    const { caller } = context.state;
    if (key === undefined || caller === undefined) return run(event, context);

    const owner = credentialOf(caller);
    const id = recordIdOf(owner, key);
    const fingerprint = fingerprintOf(event, context.state.body);
    const now = nowSeconds();
    const claimed = await claim({
      id,
      fingerprint,
      nowSeconds: now,
      lockedUntil: now + FUNCTION_TIMEOUT_SECONDS,
      expiresAt: now + IDEMPOTENCY_TTL_SECONDS,
    });
    if (claimed.outcome !== 'claimed' && claimed.fingerprint !== fingerprint) {
      throw new IdempotencyKeyReusedError(`This ${HEADER} was used with another request`);
    }
    if (claimed.outcome === 'completed') {
      await confirmMembership(caller, readRole);
      return replayed(open(claimed.response, owner, key));
    }
    if (claimed.outcome === 'in_progress') {
      throw new RequestInProgressError(`A request with this ${HEADER} is still in progress; retry later`);
    }

    let response: ProxyResult;
    try {
      response = await run(event, context);
    } catch (error) {
      // The client hears about the request's own failure. Should the release fail too, the lock
      // still lapses at `lockedUntil`, and a retry waits that long at most.
      await release(id, fingerprint).catch(() => undefined);
      throw error;
    }
    if (response.statusCode >= 500) await release(id, fingerprint);
    else await complete(id, fingerprint, seal(stored(response), owner, key));
    return response;
  };
}

const stored = (response: ProxyResult): StoredResponse => ({
  statusCode: response.statusCode,
  headers: Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]),
  ),
  body: response.body,
});
