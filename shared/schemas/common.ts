import * as z from 'zod/mini';
import { isValidBranchName, MAX_BRANCH_LENGTH } from '#shared/model/branch-name.ts';
import { hasControlCharacter } from '#shared/model/text.ts';

/**
 * A length cap that stops validation when it fails, so no later check (a regex, a refinement)
 * ever runs on an oversized value: zod otherwise runs every check of a field.
 */
export const atMost = (length: number, message = `must be at most ${length} characters`) =>
  z.maxLength(length, { error: message, abort: true });

/** A name a person gives something (a project, a key, themselves): what every such field accepts. */
export const DisplayName = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    atMost(100),
    z.refine((value: string) => !hasControlCharacter(value), 'must not contain control characters'),
  )
  .register(z.globalRegistry, {
    description: 'Trimmed first; then 1 to 100 characters, no control characters.',
  });

/** `{id}` in a path. Its format is checked by the domain, which answers 404 for any unknown id. */
export const IdParams = z.object({
  id: z
    .string()
    .check(atMost(64))
    .register(z.globalRegistry, {
      description: 'The id as the API returned it. An id of another shape answers 404, like an unknown one.',
      examples: ['prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A'],
    }),
});

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** How the document shows `limit`: the number it is, not the digits zod reads it from. */
const asPageSize = ({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void => {
  delete jsonSchema.pattern;
  Object.assign(jsonSchema, {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  });
};

/** `?limit=&cursor=` on every list. Other query parameters are ignored, as most APIs do. */
export const PageQuery = z.object({
  limit: z
    .optional(
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
    )
    .register(z.globalRegistry, {
      description: `Items per page, ${DEFAULT_PAGE_SIZE} unless given.`,
      override: asPageSize,
    }),
  cursor: z.optional(z.string().check(atMost(1024, 'is not valid'))).register(z.globalRegistry, {
    description: "The previous page's `nextCursor`. Signed: a changed or foreign cursor answers 400.",
  }),
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
  )
  .register(z.globalRegistry, {
    description: `A valid git branch name (the rules of \`git check-ref-format --branch\`), at most ${MAX_BRANCH_LENGTH} characters.`,
    examples: ['main'],
  });

/**
 * `?teamId=` on every route that acts in a team: which one. Read by the chain
 * (shared/http/team-scope.ts), not by the handlers; here so the document shows it.
 */
export const TeamQuery = z.object({
  teamId: z.optional(z.string().check(atMost(64))).register(z.globalRegistry, {
    description:
      'The team to act in; your personal team when absent. A team you are not a member of answers 404, like an unknown one.',
    examples: ['team_01JD8Z3Q4R5S6T7V8W9X0Y1Z2B'],
  }),
});
