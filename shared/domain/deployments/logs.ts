import { noteAuditProject } from '#shared/db/audit/scope.ts';
import { decodeCursor, encodeCursor } from '#shared/db/cursor.ts';
import { findDeployment } from '#shared/db/deployments/deployments.ts';
import { appendLines, readLines, readLogHead, type StoredLine } from '#shared/db/deployments/logs.ts';
import type { Page } from '#shared/db/pages.ts';
import { mustReachDeployment, reaches } from '#shared/domain/teams/token-reach.ts';
import type { Caller } from '#shared/model/caller.ts';
import {
  MAX_LINES_PER_DEPLOYMENT,
  MAX_LOG_BYTES,
  maskSecrets,
  utf8Bytes,
} from '#shared/model/deployments/logs.ts';
import type { DeploymentState } from '#shared/model/deployments/states.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { isIdOf } from '#shared/model/ids.ts';
import { isoNow } from '#shared/runtime/clock.ts';
import type { AppendLogsInput } from '#shared/schemas/deployments/logs.ts';
import { secretValuesOf } from './log-masking.ts';

// A deployment's build log: appending (a build, with a `build` key) while it is queued or building,
// secrets masked before anything is stored; reading it oldest first, a page at a time. Only a `build`
// key appends: it reads the secrets anyway, while a key that could append and read the log back could
// append guesses at a secret and see which come back as `***`.

export type { StoredLine as LogLine } from '#shared/db/deployments/logs.ts';

/** The states a log may grow in: once a deployment is terminal its log is complete. */
const OPEN: readonly DeploymentState[] = ['queued', 'building'];

/**
 * How often an append reads the head again after other appends got there first. Each round lets at
 * least one racer through, so this covers dozens of simultaneous appends to one deployment.
 */
const APPEND_ATTEMPTS = 50;

const isDeploymentId = (id: string): boolean => isIdOf('dpl', id);
const notFound = (id: string) => new NotFoundError(`Deployment ${id} was not found`);
const closed = (id: string, status: string) =>
  new ConflictError(
    `Deployment ${id} is ${status}; log lines are accepted only while it is queued or building`,
  );

async function ownDeployment(ownerId: string, id: string) {
  const deployment = isDeploymentId(id) ? await findDeployment(ownerId, id) : undefined;
  if (!deployment) throw notFound(id);
  return deployment;
}

/** Appends lines to one of the caller's deployments; the sequence numbers they were given. */
export const appendDeploymentLogs = (
  caller: Caller,
  id: string,
  input: AppendLogsInput,
): Promise<{ firstSeq: number; lastSeq: number }> =>
  mustReachDeployment(caller, id, { doing: 'append to their logs' }).then(() =>
    appendLogLines(caller.team.partition, id, input),
  );

/**
 * Appends lines to one of the owner's deployments (the API's append, and the local builder's), secrets
 * masked, while it is queued or building.
 */
export async function appendLogLines(
  ownerId: string,
  id: string,
  input: AppendLogsInput,
): Promise<{ firstSeq: number; lastSeq: number }> {
  const deployment = await ownDeployment(ownerId, id);
  noteAuditProject(deployment.projectId);
  if (!OPEN.includes(deployment.status)) throw closed(id, deployment.status);
  const secrets = await secretValuesOf(deployment.projectId, id);
  const now = isoNow();
  const lines = input.lines.map((line) => ({
    at: line.at ?? now,
    stream: line.stream ?? 'stdout',
    text: maskSecrets(line.text, secrets),
  }));
  const bytes = lines.reduce((sum, line) => sum + utf8Bytes(line.text), 0);
  for (let attempt = 1; attempt <= APPEND_ATTEMPTS; attempt++) {
    const head = await readLogHead(id);
    if (head.count + lines.length > MAX_LINES_PER_DEPLOYMENT || head.bytes + bytes > MAX_LOG_BYTES) {
      throw new ConflictError(
        `Deployment ${id} holds ${head.count} log lines (${head.bytes} bytes); a log holds at most ${MAX_LINES_PER_DEPLOYMENT} lines and ${MAX_LOG_BYTES} bytes`,
      );
    }
    const result = await appendLines({
      ownerId,
      deploymentId: id,
      head,
      lines,
      bytes,
      open: OPEN,
    });
    if (result.outcome === 'appended') return { firstSeq: result.firstSeq, lastSeq: result.lastSeq };
    if (result.outcome === 'closed') {
      const current = await findDeployment(ownerId, id);
      if (!current) throw notFound(id);
      throw closed(id, current.status);
    }
    // Raced: spread the retries a little, so that a crowd does not read the head again all at once.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt, 10)));
  }
  throw new ConflictError(`Other appends to deployment ${id} kept getting there first; try again`);
}

const cursorScope = (caller: Caller, id: string): string => `logs:${caller.team.partition}:${id}`;

/** Where a read starts: after the cursor's line, else after `since`, else at the first line. */
async function startAfter(caller: Caller, id: string, query: { cursor?: string; since?: number }) {
  if (query.cursor !== undefined) return Number(await decodeCursor(cursorScope(caller, id), query.cursor));
  return query.since ?? 0;
}

/** A page of one of the caller's deployments' log lines, oldest first. */
export async function listDeploymentLogs(
  caller: Caller,
  id: string,
  query: { limit: number; cursor?: string; since?: number },
): Promise<Page<StoredLine>> {
  const [deployment, after] = await Promise.all([
    ownDeployment(caller.team.partition, id),
    startAfter(caller, id, query),
  ]);
  if (!reaches(caller, deployment.projectId)) throw new NotFoundError(`Deployment ${id} was not found`);
  const { lines, more } = await readLines(id, after, query.limit);
  const last = lines.at(-1);
  return {
    items: lines,
    nextCursor: more && last ? await encodeCursor(cursorScope(caller, id), String(last.seq)) : null,
  };
}
