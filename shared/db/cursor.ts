import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '#shared/model/errors.ts';
import { secretVersions } from '#shared/runtime/secrets.ts';

// Opaque, tamper-evident list cursors: the last id of a page plus an HMAC over that id and the
// list it belongs to ("projects of user X"). A cursor that was edited, or taken from another list
// or another user, fails the check and is a 400 naming `cursor`; it can never reach another
// user's items, because the query itself is always scoped to the caller.
//
// The key is a rotated secret: cursors are signed with the current key and verified with the
// current or the previous one, so a cursor handed out just before a rotation still works after it.

const sign = (key: string, scope: string, payload: string): Buffer =>
  createHmac('sha256', key).update(`${scope}\n${payload}`).digest().subarray(0, 16);

export async function encodeCursor(scope: string, lastId: string): Promise<string> {
  const { current } = await secretVersions('cursorKey');
  const payload = Buffer.from(lastId, 'utf8').toString('base64url');
  return `${payload}.${sign(current, scope, payload).toString('base64url')}`;
}

/** The last id a cursor stands for; throws a validation error for anything we did not sign. */
export async function decodeCursor(scope: string, cursor: string): Promise<string> {
  const [payload, signature, extra] = cursor.split('.');
  if (payload && signature && extra === undefined) {
    const given = Buffer.from(signature, 'base64url');
    // A key this container has not seen yet may have signed it (another container after a
    // rotation): ask once more before refusing.
    for (const refresh of [false, true]) {
      const { current, previous } = await secretVersions('cursorKey', { refresh });
      for (const key of previous === undefined ? [current] : [current, previous]) {
        const expected = sign(key, scope, payload);
        if (given.length === expected.length && timingSafeEqual(given, expected)) {
          return Buffer.from(payload, 'base64url').toString('utf8');
        }
      }
    }
  }
  throw new ValidationError('cursor', 'cursor is not valid; use the nextCursor of a previous page');
}
