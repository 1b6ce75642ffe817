import { decodeCursor, encodeCursor } from '#shared/db/cursor.ts';
import { ValidationError } from '#shared/model/errors.ts';

// List cursors: opaque, signed, bound to their list. Anything else is a 400 naming `cursor`.
// (The run's CURSOR_SECRET comes from test/support/global-setup.ts.)

async function refusal(scope: string, cursor: string) {
  try {
    await decodeCursor(scope, cursor);
  } catch (error) {
    if (error instanceof ValidationError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error(`the cursor ${cursor} was accepted`);
}

const REFUSED = { field: 'cursor', message: 'cursor is not valid; use the nextCursor of a previous page' };

describe('list cursors', () => {
  it('gives back the last id of the page it was made for', async () => {
    const cursor = await encodeCursor('projects:usr_1', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A');
    expect(await decodeCursor('projects:usr_1', cursor)).toBe('prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A');
  });

  it('carries any id, Unicode included, and is URL-safe', async () => {
    const cursor = await encodeCursor('keys:usr_1', 'ünïcødé/+?&=');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await decodeCursor('keys:usr_1', cursor)).toBe('ünïcødé/+?&=');
  });

  it('does not show the id in the clear', async () => {
    expect(await encodeCursor('projects:usr_1', 'prj_visible')).not.toContain('prj_visible');
  });

  it("refuses a cursor of another list or another user's list", async () => {
    const cursor = await encodeCursor('projects:usr_1', 'prj_1');
    expect(await refusal('projects:usr_2', cursor)).toEqual(REFUSED);
    expect(await refusal('deployments:usr_1', cursor)).toEqual(REFUSED);
  });

  it('refuses a cursor whose id was edited', async () => {
    const [, signature] = (await encodeCursor('projects:usr_1', 'prj_1')).split('.');
    const forged = `${Buffer.from('prj_2').toString('base64url')}.${signature}`;
    expect(await refusal('projects:usr_1', forged)).toEqual(REFUSED);
  });

  it('refuses a cursor whose signature was edited or cut', async () => {
    const [payload = '', signature = ''] = (await encodeCursor('projects:usr_1', 'prj_1')).split('.');
    // The first character carries six bits of the signature (the last one partly padding).
    const edited = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await refusal('projects:usr_1', `${payload}.${edited}`)).toEqual(REFUSED);
    expect(await refusal('projects:usr_1', `${payload}.${signature.slice(0, -2)}`)).toEqual(REFUSED);
  });

  it.each(['', 'garbage', '.', 'a.', '.b', 'a.b.c'])('refuses %p', async (cursor) => {
    expect(await refusal('projects:usr_1', cursor)).toEqual(REFUSED);
  });

  it('refuses a valid cursor with a third part appended', async () => {
    expect(await refusal('projects:usr_1', `${await encodeCursor('projects:usr_1', 'prj_1')}.x`)).toEqual(
      REFUSED,
    );
  });
});
