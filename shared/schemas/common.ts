import * as z from 'zod/mini';
import { isValidBranchName, MAX_BRANCH_LENGTH } from '../domain/branch-name.ts';

/**
 * A length cap that stops validation when it fails, so no later check (a regex, a refinement)
 * ever runs on an oversized value: zod otherwise runs every check of a field.
 */
export const atMost = (length: number, message = `must be at most ${length} characters`) =>
  z.maxLength(length, { error: message, abort: true });

/** `{id}` in a path. Its format is checked by the domain, which answers 404 for any unknown id. */
export const IdParams = z.object({ id: z.string().check(atMost(64)) });

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `?limit=&cursor=` on every list. Other query parameters are ignored, as most APIs do. */
export const PageQuery = z.object({
  limit: z.optional(
    z.pipe(
      z.string().check(z.regex(/^[0-9]{1,3}$/, `must be a whole number from 1 to ${MAX_PAGE_SIZE}`)),
      z
        .transform((value: string) => Number(value))
        .check(
          z.refine(
            (n: number) => n >= 1 && n <= MAX_PAGE_SIZE,
            `must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
          ),
        ),
    ),
  ),
  cursor: z.optional(z.string().check(atMost(1024, 'is not valid'))),
});

export type PageRequest = { limit: number; cursor?: string };

export const pageOf = (query: z.output<typeof PageQuery>): PageRequest => ({
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
  ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
});

export const BranchName = z
  .string()
  .check(
    z.refine(isValidBranchName, `must be a valid git branch name of at most ${MAX_BRANCH_LENGTH} characters`),
  );
