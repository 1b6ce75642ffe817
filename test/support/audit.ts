import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { startStreamPoller } from '#infra/local/stream-poller.ts';
import { streamConsumers } from '#shared/consumers.ts';
import type { AuditActor, AuditChange, AuditEvent } from '#shared/model/audit.ts';
import { personalTeamIdOf } from '#shared/model/teams.ts';
import { startGateway, type TestGateway } from './gateway.ts';
import { call, type JsonResponse, type RequestOptions } from './http.ts';
import { newPerson, newTeam, type TestPerson } from './teams.ts';
import { ownedByThisRun } from './users.ts';

// The audit log as a test reads it. Events of changes come from the tables' streams, so a file that
// reads them runs the `record-audit-events` consumer itself, fed only the records of its own people
// and teams (other files run in parallel on the same store), and reads the log until the events it
// waits for are there: bounded rounds, never a sleep. A suite that overrides settings loads it after
// them (it loads the service's modules).

/** The user and team ids whose stamped writes this file's poller records. */
const watched = new Set<string>();

/** Records the changes of these users and teams from now on (made otherwise than newWatched…). */
export function watch(...ids: string[]): void {
  for (const id of ids) watched.add(id);
}

/** Whether a record is a stamped write of this file's people or teams (or of its newCaller users). */
function isWatched(record: DynamoDBRecord): boolean {
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  const stamp = image?.audit?.M;
  const team = stamp?.teamId?.S;
  const actor = stamp?.actor?.M?.id?.S;
  return (
    (team !== undefined && watched.has(team)) ||
    (actor !== undefined && watched.has(actor)) ||
    ownedByThisRun(record)
  );
}

/**
 * The local gateway, with a poller of the streams for this file's audit events (and `also` the named
 * consumers, e.g. `auto-promote`); closing it stops both.
 */
export async function startAuditedGateway(also: readonly string[] = []): Promise<TestGateway> {
  const handlers = new Set(['record-audit-events', ...also]);
  const gateway = await startGateway();
  const poller = await startStreamPoller(process.env.DYNAMODB_ENDPOINT ?? '', {
    // Seven streams a file: every 200 ms keeps DynamoDB Local, which every file shares, unhurried.
    intervalMs: 200,
    consumers: streamConsumers.filter(({ handler }) => handlers.has(handler)),
    accepts: isWatched,
  }).catch(async (error: unknown) => {
    await gateway.close();
    throw error;
  });
  return {
    ...gateway,
    close: async () => {
      await poller.stop();
      await gateway.close();
    },
  };
}

/**
 * A person whose changes this file's poller records (their personal team's included), with a key
 * allowed enough requests to read a log until an event arrives.
 */
export async function newWatchedPerson(name = 'Ada'): Promise<TestPerson> {
  const person = await newPerson(name, { rateLimit: 100_000 });
  watch(person.userId, personalTeamIdOf(person.userId));
  return person;
}

/** A team owned by `owner` whose events this file's poller records; its id. */
export async function newWatchedTeam(baseUrl: string, owner: TestPerson, name = 'Team'): Promise<string> {
  const teamId = await newTeam(baseUrl, owner, name);
  watch(teamId);
  return teamId;
}

/** A User-Agent no other request sends: what the events of one test's requests must carry. */
export const uniqueAgent = (label = 'audit-test'): string => `${label}/${randomUUID()}`;

/** A request with the given User-Agent. */
export const callAs = (userAgent: string, url: string, options: RequestOptions = {}): Promise<JsonResponse> =>
  call(url, { ...options, headers: { 'User-Agent': userAgent, ...options.headers } });

export const requestIdOf = (response: JsonResponse): string => response.headers.get('x-request-id') ?? '';

/** One page of a team's log, as `key` sees it (`query` without the leading `?`). */
export const auditPage = (baseUrl: string, key: string, teamId: string, query = ''): Promise<JsonResponse> =>
  call(`${baseUrl}/teams/${teamId}/audit-events${query ? `?${query}` : ''}`, { key });

/** Every event of a team's log that passes `query`, newest first, page after page. */
export async function readLog(
  baseUrl: string,
  key: string,
  teamId: string,
  query = '',
): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const page = `${query ? `${query}&` : ''}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await auditPage(baseUrl, key, teamId, page);
    if (response.status !== 200) throw new Error(`audit log not read: ${response.status} ${response.text}`);
    const body = response.body as { events: AuditEvent[]; nextCursor: string | null };
    events.push(...body.events);
    cursor = body.nextCursor;
  } while (cursor);
  return events;
}

/** Reads until `done` holds, at most 300 rounds 100 ms apart; the last value read either way. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let round = 0; ; round++) {
    const value = await read();
    if (done(value) || round >= 300) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The team's log once it holds an event of every one of `requestIds`, and at least `atLeast` events
 * in all (or after the last round). `atLeast` counts the events of requests whose ids a test does not
 * have (those a helper made): each table's stream is read on its own, so under load an earlier
 * change's event can come after a later one's.
 */
export const logWith = (
  baseUrl: string,
  key: string,
  teamId: string,
  requestIds: readonly string[],
  atLeast = 0,
): Promise<AuditEvent[]> =>
  eventually(
    () => readLog(baseUrl, key, teamId),
    (events) =>
      events.length >= atLeast && requestIds.every((id) => events.some((event) => event.requestId === id)),
  );

/** The id of a personal key, as GET /keys lists it (events name the key a person used). */
export async function keyIdOf(baseUrl: string, key: string): Promise<string> {
  const listed = await call(`${baseUrl}/keys?limit=100`, { key });
  const keys = (listed.body as { keys: { id: string; prefix: string; last4: string }[] }).keys;
  const own = keys.find(({ prefix, last4 }) => key.startsWith(prefix) && key.endsWith(last4));
  if (!own) throw new Error('the key is not among its user’s keys');
  return own.id;
}

/** An event's time, as the log gives it. */
export const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** What one request must have left in a team's log. */
export interface Expected {
  action: string;
  response: JsonResponse;
  actor: AuditActor;
  target: { type: string; id: string };
  projectId?: string;
  /** Checked when given; the event's other fields always are. */
  changes?: Record<string, AuditChange>;
}

/**
 * The team's log holds exactly one event of each expected request (all sent with `userAgent`), as
 * expected, and no other of that User-Agent; the log as read.
 */
export async function expectLogged(
  baseUrl: string,
  reader: TestPerson,
  teamId: string,
  userAgent: string,
  expected: readonly Expected[],
): Promise<AuditEvent[]> {
  for (const { action, response } of expected)
    expect([action, response.status < 300]).toEqual([action, true]);
  const requestIds = expected.map(({ response }) => requestIdOf(response));
  const events = await logWith(baseUrl, reader.key, teamId, requestIds);
  // No other request sent with this User-Agent left an event.
  expect(
    events.filter((event) => event.userAgent === userAgent && !requestIds.includes(event.requestId)),
  ).toEqual([]);
  // All compared at once, so that one difference does not hide the others.
  const seen = expected.map((wanted, index) => {
    const found = events.filter((event) => event.requestId === requestIds[index]);
    // `changes` is compared where the caller says what they are.
    return found.map(({ changes, ...event }) => (wanted.changes ? { ...event, changes } : event));
  });
  expect(seen).toEqual(
    expected.map((wanted, index) => [
      {
        id: expect.stringMatching(/^aud_/),
        teamId,
        at: ISO,
        action: wanted.action,
        outcome: 'success',
        actor: wanted.actor,
        target: wanted.target,
        ...(wanted.projectId === undefined ? {} : { projectId: wanted.projectId }),
        requestId: requestIds[index],
        ip: '127.0.0.1',
        userAgent,
        ...(wanted.changes ? { changes: wanted.changes } : {}),
      },
    ]),
  );
  return events;
}
