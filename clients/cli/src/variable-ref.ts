import type { PlatformClient } from '@platform-api/client';
import { CliError } from './flags.ts';

/** A variable's id as the API makes them: `env_` and a ULID. A key never looks like one in practice. */
const VARIABLE_ID = /^env_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * A project's variable's id from its id (`env_…`) or its key. One key may hold several variables, one
 * per target: then `target` picks the one that applies there, and without it the answer lists them.
 */
export async function variableId(
  client: PlatformClient,
  projectId: string,
  idOrKey: string,
  target?: string,
): Promise<string> {
  if (VARIABLE_ID.test(idOrKey)) return idOrKey;
  const keyed = [];
  for await (const variable of client.environment.listVariables(projectId, { limit: 100 })) {
    if (variable.key === idOrKey) keyed.push(variable);
  }
  if (keyed.length === 0)
    throw new CliError('not_found', `No variable with the id or key ${idOrKey} in this project`, 1);
  const chosen = target
    ? keyed.filter((variable) => variable.targets.some((each) => each === target))
    : keyed;
  const [only] = chosen;
  if (only && chosen.length === 1) return only.id;
  // Oldest first (ids sort by creation), whatever order the list came in.
  const each = keyed
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((variable) => `${variable.id} (${variable.targets.join(', ')})`)
    .join('; ');
  if (chosen.length === 0)
    throw new CliError(
      'not_found',
      `No variable ${idOrKey} applies to ${target}: ${keyed.length} do, ${each}`,
      1,
    );
  throw new CliError(
    'usage_error',
    `${keyed.length} variables have the key ${idOrKey}, one per target: pass --target (${each}) or the id`,
  );
}
