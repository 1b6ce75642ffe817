import { createHmac, timingSafeEqual } from 'node:crypto';
import { requireEnv } from '../env.ts';
import { ValidationError } from '../errors.ts';

// Opaque, tamper-evident list cursors: the last id of a page plus an HMAC over that id and the
// list it belongs to ("projects of user X"). A cursor that was edited, or taken from another list
// or another user, fails the check and is a 400 naming `cursor`; it can never reach another
// user's items, because the query itself is always scoped to the caller.

const sign = (scope: string, payload: string): Buffer =>
  createHmac('sha256', requireEnv('CURSOR_SECRET')).update(`${scope}\n${payload}`).digest().subarray(0, 16);

export function encodeCursor(scope: string, lastId: string): string {
  const payload = Buffer.from(lastId, 'utf8').toString('base64url');
  return `${payload}.${sign(scope, payload).toString('base64url')}`;
}

/** The last id a cursor stands for; throws a validation error for anything we did not sign. */
export function decodeCursor(scope: string, cursor: string): string {
  const [payload, signature, extra] = cursor.split('.');
  if (payload && signature && extra === undefined) {
    const expected = sign(scope, payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      return Buffer.from(payload, 'base64url').toString('utf8');
    }
  }
  throw new ValidationError('cursor', 'cursor is not valid; use the nextCursor of a previous page');
}
