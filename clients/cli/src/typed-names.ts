import type { PlatformClient } from '@platform-api/client';

// The names a person typed for what the API knows by id (`--team Acme`, `deploy web`), so that an
// error the CLI prints names them as they were typed (`needs the admin role … in team Acme
// (team_…)`), not by ids alone. Kept per client, which is per command line; --json output is left
// as the API answered it.

const typed = new WeakMap<PlatformClient, Map<string, string>>();

/** Makes `client` note the names looked up through it in `names` (its command line's). */
export function noteTypedNames(client: PlatformClient, names: Map<string, string>): void {
  typed.set(client, names);
}

/** Notes that the person typed `name` for `id` (an id typed as itself needs no note). */
export function rememberTypedName(client: PlatformClient, id: string, name: string): void {
  if (name !== id) typed.get(client)?.set(id, name);
}

/** `text` with each id the person named shown as `name (id)`. */
export function withTypedNames(text: string, names: ReadonlyMap<string, string>): string {
  let named = text;
  for (const [id, name] of names) named = named.replaceAll(id, `${name} (${id})`);
  return named;
}
