// The environment's wiring, read when asked: variables whose names are data (a table's, a secret's
// ARN, a key's id), and those the platform or the stack sets for a function (its region, the store's
// endpoint, the delivery queue). Read at each call, so a test that sets one is seen at once, and kept
// apart from the settings (config.ts) so that a function reads them without loading the settings'
// schemas. Nothing else in shared/ or functions/ reads process.env (Biome's noProcessEnv).

/** The variable's value; undefined when it is unset or empty. */
export const variable = (name: string): string | undefined => process.env[name] || undefined;

/** The value of a required variable; throws (at module load, where it is called) when missing. */
export function requireEnv(name: string): string {
  const value = variable(name);
  if (value === undefined) {
    throw new Error(`Missing required environment variable ${name}`);
  }
  return value;
}
