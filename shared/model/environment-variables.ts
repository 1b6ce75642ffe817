// The rules of a project's environment variables, declared once: the schemas check them, the domain
// enforces the ones that depend on what is stored, and the document states them.

/** Where a variable applies. `development` values are for local work (the CLI's `env pull`). */
export const ENVIRONMENT_TARGETS = ['production', 'preview', 'development'] as const;
export type EnvironmentTarget = (typeof ENVIRONMENT_TARGETS)[number];

/** `plain` values can be read back; `secret` values never leave the service but through a build. */
export const VARIABLE_TYPES = ['plain', 'secret'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** A name a shell accepts for a variable. */
export const VARIABLE_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_VARIABLE_KEY_LENGTH = 256;
/** Counted in UTF-8 bytes. */
export const MAX_VARIABLE_VALUE_BYTES = 16 * 1024;
/** Per project, whichever route adds them. */
export const MAX_VARIABLES_PER_PROJECT = 100;
/**
 * Reads of one deployment's build environment: each is recorded in the deployment's item, which must
 * stay small (every read of it pays for its size, and an item holds at most 400 KB). A build reads it
 * once, or a few times when a step is retried; past this the read is refused (409).
 */
export const MAX_BUILD_ENV_READS = 20;

/** The targets in their declared order, each once: how they are stored and shown. */
export const canonicalTargets = (targets: readonly EnvironmentTarget[]): EnvironmentTarget[] =>
  ENVIRONMENT_TARGETS.filter((target) => targets.includes(target));

/** The first target two variables with the same key share, if any: the same key may not overlap. */
export function overlapOf(
  a: { key: string; targets: readonly EnvironmentTarget[] },
  b: { key: string; targets: readonly EnvironmentTarget[] },
): EnvironmentTarget | undefined {
  if (a.key !== b.key) return undefined;
  return a.targets.find((target) => b.targets.includes(target));
}
