import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { ConflictError } from '#shared/model/errors.ts';
import type { User as UserSchema } from '#shared/schemas/account-resources.ts';
import type { PageRequest } from '#shared/schemas/common.ts';
import { batchGet } from './batch-get.ts';
import { db } from './client.ts';
import { transactWrite } from './conditional.ts';
import { type Page, queryPage } from './pages.ts';
import { indexes, tableName } from './tables.ts';

// Users (`USER#<id>`: the public profile) and their credentials (`EMAIL#<email>`: user id and
// password hash) share one table. Both items are written in one transaction, each on condition
// that it does not exist yet, so that of any number of concurrent registrations of one email
// exactly one succeeds. Login reads the credentials item first and the profile only after the
// password matched, so an unknown email and a wrong password cost the same reads before the hash.
// The sparse `byCreation` index (only profiles carry `listing`) lists users without a scan; no
// password hash is ever in it.

const table = (): string => tableName('users');
const LISTING = 'USER';

/** A user as the API shows it: the response schema's type, so no field goes undocumented. */
export type User = z.output<typeof UserSchema>;

export interface Credentials {
  userId: string;
  passwordHash: string;
}

const userKey = (id: string) => ({ pk: `USER#${id}` });
const emailKey = (email: string) => ({ pk: `EMAIL#${email}` });

const toUser = (item: Record<string, unknown>): User => ({
  id: String(item.id),
  email: String(item.email),
  name: typeof item.name === 'string' ? item.name : null,
  role: item.role === 'admin' ? 'admin' : 'member',
  createdAt: String(item.createdAt),
});

/** Stores a new user; ConflictError when the email is taken (checked atomically, not read first). */
export async function insertUser(user: User, passwordHash: string): Promise<void> {
  // The email's marker comes first: its condition is the one that makes a taken email a 409, also
  // on the retry of a transaction that raced another registration of the same email.
  const stored = await transactWrite(() => ({
    TransactItems: [
      {
        Put: {
          TableName: table(),
          Item: { ...emailKey(user.email), userId: user.id, passwordHash },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table(),
          Item: { ...userKey(user.id), ...user, listing: LISTING },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  }));
  if (!stored && !(await isOwnMarker(user.email, user.id, passwordHash))) {
    throw new ConflictError('A user with this email already exists');
  }
}

/**
 * Whether the email's marker is the one this registration wrote: a transaction applied whose answer
 * was lost, sent again where DynamoDB cannot tell it is the same one (its token not carried over),
 * fails its own conditions. The fresh user id and the hash (salted per call) make the marker unique
 * to this call, as putNew recognises a put of its own (conditional.ts). Read only on that path.
 */
async function isOwnMarker(email: string, userId: string, passwordHash: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: emailKey(email), ConsistentRead: true }),
  );
  return Item?.userId === userId && Item.passwordHash === passwordHash;
}

/**
 * Read consistently, as the profile after it: a client that registers and logs in at once (an
 * onboarding script) must not be told its password is wrong, or fail, on a read that lags the write.
 * Login is rare beside the requests its key makes; the second half unit is nothing.
 */
export async function findCredentials(email: string): Promise<Credentials | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: table(), Key: emailKey(email), ConsistentRead: true }),
  );
  if (typeof Item?.userId !== 'string' || typeof Item.passwordHash !== 'string') return undefined;
  return { userId: Item.userId, passwordHash: Item.passwordHash };
}

export async function findUser(
  id: string,
  options: { consistent?: boolean } = {},
): Promise<User | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: table(),
      Key: userKey(id),
      ...(options.consistent && { ConsistentRead: true }),
    }),
  );
  return Item ? toUser(Item) : undefined;
}

/**
 * The id of the user with this (lower-cased) email, if one exists: its email item's `userId` alone,
 * never its password hash. A BatchGetItem of one key, so that the audit log's reader, which reads
 * emails that way, needs no other permission.
 */
export async function userIdOfEmail(email: string): Promise<string | undefined> {
  const [item] = await batchGet(table(), [emailKey(email)], { projection: 'userId' });
  return item === undefined ? undefined : String(item.userId);
}

/** The emails of the users of `ids` that exist, by id: one BatchGetItem of their profiles' two fields. */
export async function emailsOf(ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const items = await batchGet(table(), ids.map(userKey), { projection: 'id, email' });
  return new Map(items.map((item) => [String(item.id), String(item.email)]));
}

export async function updatePasswordHash(email: string, passwordHash: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: table(),
      Key: emailKey(email),
      UpdateExpression: 'SET passwordHash = :passwordHash',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':passwordHash': passwordHash },
    }),
  );
}

export async function listUsers(page: PageRequest): Promise<Page<User>> {
  const result = await queryPage(
    {
      scope: 'users',
      query: {
        TableName: table(),
        IndexName: indexes.users.byCreation.name,
        KeyConditionExpression: '#listing = :listing',
        ExpressionAttributeNames: { '#listing': indexes.users.byCreation.partitionKey },
        ExpressionAttributeValues: { ':listing': LISTING },
      },
      resume: { keyOf: (id) => ({ ...userKey(id), listing: LISTING, id }) },
    },
    page,
  );
  return { items: result.items.map(toUser), nextCursor: result.nextCursor };
}
