import { listUnfinished } from '#shared/db/deployments/maintenance.ts';
import { advanceDeployment } from '#shared/domain/deployments/deployments.ts';
import { appendLogLines } from '#shared/domain/deployments/logs.ts';
import { ConflictError, NotFoundError } from '#shared/model/errors.ts';
import { clock } from '#shared/runtime/clock.ts';
import { every, type Repeating } from './every.ts';

// `npm start`'s builder (on unless LOCAL_BUILDER=0): a stand-in for a build system, so that someone
// trying the API locally sees deployments move, and `platform deploy --wait` ends as the README shows. Every deployment that has sat `delayMs` in `queued` goes to `building`,
// and after as long again to `ready`, through the same domain function a status report uses (one
// conditional write each), so a cancel or a report that gets there first simply wins. It writes a few
// lines of build log at each step, through the same append the API uses, so that a local deployment
// has a log to follow (`curl -N .../logs -H 'Accept: text/event-stream'`).

export interface LocalBuilderSettings {
  /** How long a deployment stays queued, and then building. */
  delayMs: number;
  /** How often the builder looks for work. */
  pollMs: number;
  /** Only this owner's deployments (tests, which share one store); every owner's when absent. */
  ownerId?: string;
}

export const DEFAULT_BUILDER_DELAY_MS = 3000;

/** The builder's settings from the environment, or undefined when LOCAL_BUILDER is `0`. */
export function localBuilderSettings(env: NodeJS.ProcessEnv = process.env): LocalBuilderSettings | undefined {
  if (env.LOCAL_BUILDER === '0') return undefined;
  if (env.LOCAL_BUILDER !== undefined && env.LOCAL_BUILDER !== '1')
    throw new Error(
      `LOCAL_BUILDER must be 1 (the default: deployments are built) or 0, not ${env.LOCAL_BUILDER}`,
    );
  const raw = env.LOCAL_BUILDER_DELAY_MS;
  if (raw !== undefined && !/^[0-9]{1,7}$/.test(raw)) {
    throw new Error(`LOCAL_BUILDER_DELAY_MS must be a whole number of milliseconds, not ${raw}`);
  }
  const delayMs = raw === undefined ? DEFAULT_BUILDER_DELAY_MS : Number(raw);
  return { delayMs, pollMs: Math.min(500, Math.max(10, Math.floor(delayMs / 4))) };
}

const NEXT = { queued: 'building', building: 'ready' } as const;
const MESSAGE = { building: 'local builder: building', ready: 'local builder: ready' } as const;

/** The log lines of each step: before the move (while it may still take lines) and after it. */
const LOG_LINES = {
  building: {
    before: (branch: string) => [`Cloning branch ${branch}`, 'Installing dependencies'],
    after: () => ['> npm run build'],
  },
  ready: {
    before: () => ['Compiled successfully', 'Uploading build output'],
    after: () => [],
  },
} as const satisfies Record<string, { before: (branch: string) => string[]; after: () => string[] }>;

const lines = (texts: readonly string[]) => ({ lines: texts.map((text) => ({ text })) });

async function tick({ delayMs, ownerId }: LocalBuilderSettings): Promise<void> {
  for (const state of ['building', 'queued'] as const) {
    for (const deployment of await listUnfinished(state, ownerId)) {
      if (clock.now() - Date.parse(deployment.updatedAt) < delayMs) continue;
      const to = NEXT[state];
      try {
        const step = LOG_LINES[to];
        await appendLogLines(deployment.ownerId, deployment.id, lines(step.before(deployment.branch)));
        await advanceDeployment(deployment.ownerId, deployment.id, { status: to, message: MESSAGE[to] });
        const after = step.after();
        if (after.length > 0) await appendLogLines(deployment.ownerId, deployment.id, lines(after));
      } catch (error) {
        // Moved (a cancel, a report) or gone since the index was read: someone else's step won.
        if (!(error instanceof ConflictError || error instanceof NotFoundError)) throw error;
      }
    }
  }
}

/** Starts polling; `stop` resolves once the current round is over. */
export function startLocalBuilder(settings: LocalBuilderSettings): Repeating {
  return every(settings.pollMs, () =>
    tick(settings).catch((error: unknown) => {
      // The store may be restarting (npm start supervises it): log and try again next round.
      console.error(`local builder: ${error instanceof Error ? error.message : String(error)}`);
    }),
  );
}
