import type { Page } from '#shared/db/pages.ts';
import * as users from '#shared/db/users.ts';
import type { Caller, Role } from '#shared/model/caller.ts';
import { ForbiddenError } from '#shared/model/errors.ts';
import { newId } from '#shared/model/ids.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { hashPassword } from './passwords.ts';

export type { User } from '#shared/db/users.ts';

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  role: Role;
}

/** Creates a user with a hashed password; ConflictError when the email is taken. */
export async function createUser(input: NewUser): Promise<users.User> {
  const user: users.User = {
    id: newId('usr'),
    email: input.email,
    name: input.name ?? null,
    role: input.role,
    createdAt: isoNow(),
  };
  await users.insertUser(user, await hashPassword(input.password));
  return user;
}

/** All users, newest first: admins only. */
export async function listUsers(caller: Caller, page: PageRequest): Promise<Page<users.User>> {
  if (caller.role !== 'admin') throw new ForbiddenError('Only admins may list users');
  return users.listUsers(page);
}
