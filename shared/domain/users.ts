import { isoNow } from '../clock.ts';
import type { Page } from '../db/pages.ts';
import * as users from '../db/users.ts';
import { ForbiddenError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { PageRequest } from '../schemas/common.ts';
import type { Caller, Role } from './caller.ts';
import { hashPassword } from './passwords.ts';

export type { User } from '../db/users.ts';

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
