import type { PlatformClient } from '@platform-api/client';
import { CliError } from './flags.ts';
import { rememberTypedName } from './typed-names.ts';

/** A project's id from its id (`prj_…`) or its name; two projects of that name is a usage error. */
export async function projectId(client: PlatformClient, idOrName: string): Promise<string> {
  if (idOrName.startsWith('prj_')) return idOrName;
  const named: string[] = [];
  for await (const project of client.projects.list({ limit: 100 })) {
    if (project.name === idOrName) named.push(project.id);
  }
  if (named.length > 1) {
    throw new CliError(
      'usage_error',
      `${named.length} projects are named ${idOrName}: give its id (${named.join(', ')})`,
    );
  }
  const [id] = named;
  if (!id) throw new CliError('not_found', `No project with the id or name ${idOrName}`, 1);
  rememberTypedName(client, id, idOrName);
  return id;
}
