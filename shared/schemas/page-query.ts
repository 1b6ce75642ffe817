import * as z from 'zod/mini';
import { atMost, type PageRequest } from './common.ts';

// The query of every list, apart from common.ts: a module of registered schemas is bundled whole, and
// only the lists' functions take it.

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

export const pageOf = (query: z.output<typeof PageQuery>): PageRequest => ({
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
  ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
});
