import * as z from 'zod/mini';
import { isValidBranchName, MAX_BRANCH_LENGTH } from '#shared/model/deployments/branch-name.ts';
import { hasControlCharacter } from '#shared/model/text.ts';
import { atMost } from './common.ts';

// The names people give things and the branches they build, apart from common.ts: a module of
// registered schemas is bundled whole, and most functions take neither.

/** A name a person gives something, of at most `max` characters: trimmed, not empty, no control characters. */
export const nameOf = (max: number, more = '') =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      atMost(max),
      z.refine((value: string) => !hasControlCharacter(value), 'must not contain control characters'),
    )
    .register(z.globalRegistry, {
      description: `Trimmed first; then 1 to ${max} characters, no control characters.${more}`,
    });

/** A name a person gives something (a project, a key, themselves): what every such field accepts. */
export const DisplayName = nameOf(100);

/** A git branch name, as `git check-ref-format --branch` accepts it. */
export const BranchName = z
  .string()
  .check(
    z.refine(isValidBranchName, `must be a valid git branch name of at most ${MAX_BRANCH_LENGTH} characters`),
  )
  .register(z.globalRegistry, {
    description: `A valid git branch name (the rules of \`git check-ref-format --branch\`), at most ${MAX_BRANCH_LENGTH} characters.`,
    examples: ['main'],
  });
